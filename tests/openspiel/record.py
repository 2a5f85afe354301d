"""Records OpenSpiel's own random games, once, as data for tests/openspiel.rs.

Run with a Python that has `open_spiel` (the versus bench's venv):
    target/versus-venv/bin/python tests/openspiel/record.py
Each line of `GAME.jsonl` is one game: at every step the number of legal
actions OpenSpiel offers and the action taken (as OpenSpiel names it), or
`"chance"` and the outcome drawn, then the returns. The replay test plays the same moves in rpsdsl and checks the
same number of legal moves at every step and the same result.
"""

import json
import random

import pyspiel

GAMES = 200


def record(name, params, out):
    game = pyspiel.load_game(name, params)
    rng = random.Random(20261206)
    with open(out, "w") as f:
        for _ in range(GAMES):
            state = game.new_initial_state()
            steps = []
            while not state.is_terminal():
                if state.is_chance_node():
                    # Every outcome of the games recorded here is as likely.
                    action = rng.choice([outcome for outcome, _ in state.chance_outcomes()])
                    steps.append(["chance", state.action_to_string(action)])
                else:
                    legal = state.legal_actions()
                    action = rng.choice(legal)
                    steps.append([len(legal), state.action_to_string(action)])
                state.apply_action(action)
            f.write(json.dumps({"params": params, "steps": steps, "returns": state.returns()}) + "\n")


if __name__ == "__main__":
    record("nim", {}, "tests/openspiel/nim.jsonl")
    record("nim", {"pile_sizes": "2;4;6", "is_misere": False}, "tests/openspiel/nim_2_4_6_normal.jsonl")
    record("pig", {}, "tests/openspiel/pig.jsonl")
    record("pig", {"players": 3, "winscore": 30, "horizon": 60}, "tests/openspiel/pig_3_players_to_30.jsonl")
    record("mancala", {}, "tests/openspiel/mancala.jsonl")
    record("othello", {}, "tests/openspiel/othello.jsonl")
    record("clobber", {}, "tests/openspiel/clobber.jsonl")
    record("clobber", {"rows": 4, "columns": 3}, "tests/openspiel/clobber_4_by_3.jsonl")
    record("dots_and_boxes", {}, "tests/openspiel/dots_and_boxes.jsonl")
    record("dots_and_boxes", {"num_rows": 3, "num_cols": 4}, "tests/openspiel/dots_and_boxes_3_by_4.jsonl")
    record("hex", {}, "tests/openspiel/hex.jsonl")
    record("hex", {"board_size": 5}, "tests/openspiel/hex_5.jsonl")
