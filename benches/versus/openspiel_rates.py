#!/usr/bin/env python3
"""OpenSpiel's side of `cargo bench --bench versus`: rates of OpenSpiel's C++
engine (pyspiel), one thread, as JSON lines.

Measures, for a game and a time budget in seconds:

  random   random playouts per second, each game played by
           pyspiel.evaluate_bots with C++ uniform random bots (the game loop
           runs in C++; Python only starts each game);
  mcts     search iterations (simulations) per second over whole self-play
           games, both seats the bot: pyspiel.MCTSBot with a
           RandomRolloutEvaluator(1 rollout), uct_c 2, for the perfect
           information games and liar's dice (MCTSBot searches the true
           state); pyspiel.ISMCTSBot for Kuhn and Leduc poker. Simultaneous
           games (goofspiel) are converted to turn-based for MCTSBot;
  cfr      CFR+ iterations per second on the whole tree:
           pyspiel.CFRPlusSolver, one evaluate_and_update_policy() an
           iteration, and the average policy's NashConv at the end;
  mccfr    Monte Carlo CFR iterations per second: pyspiel's C++
           ExternalSamplingMCCFRSolver or OutcomeSamplingMCCFRSolver
           ("sampling": "external" or "outcome"), seed 1, one
           run_iteration() an iteration (a traversal per player), and the
           average policy's NashConv at the end;
  length   mean decisions per game under uniform random play (a Python
           loop, not timed): every player action counts, forced ones and
           each player's part of a simultaneous move included; chance
           outcomes do not.

A game is named as pyspiel.load_game takes it, with its parameters, e.g.
"goofspiel(num_cards=13,points_order=random,returns_type=win_loss)".

One measurement from the command line:

  openspiel_rates.py random tic_tac_toe 1.0 [SEED]
  openspiel_rates.py mcts connect_four 1.0 [SEED] [SIMS]
  openspiel_rates.py length kuhn_poker 0.5 [SEED]
  openspiel_rates.py cfr leduc_poker 2.0
  openspiel_rates.py mccfr-external leduc_poker 2.0

or, with --serve, one JSON command a line on stdin, e.g.
{"measure": "mcts", "game": "kuhn_poker", "seconds": 1.0, "seed": 1, "sims": 400},
and one JSON answer a line on stdout, in order. An answer has "ok": true and
the measure's fields, or "ok": false and "error".
"""

import json
import random
import sys
import time

import pyspiel

# Games searched with ISMCTSBot (it fails on goofspiel and liar's dice:
# "ResampleFromInfostate() not implemented").
ISMCTS_GAMES = ("kuhn_poker", "leduc_poker")

_games = {}


def load(name):
    if name not in _games:
        _games[name] = pyspiel.load_game(name)
    return _games[name]


def short_name(name):
    return name.split("(", 1)[0]


def random_rate(name, seconds, seed):
    game = load(name)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    games = 0
    started = time.perf_counter()
    while True:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + games)
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    return {"games": games, "seconds": elapsed, "rate": games / elapsed}


def random_action(state, rng):
    outcomes, probs = zip(*state.chance_outcomes())
    return rng.choices(outcomes, probs)[0]


def length(name, seconds, seed, min_games=500):
    game = load(name)
    rng = random.Random(seed)
    games = decisions = 0
    started = time.perf_counter()
    while games < min_games or time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
            elif state.is_simultaneous_node():
                joint = [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
                decisions += len(joint)
                state.apply_actions(joint)
            else:
                decisions += 1
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return {"games": games, "decisions_per_game": decisions / games}


def make_bot(game, kind, sims, seed):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    if kind == "ismcts":
        return pyspiel.ISMCTSBot(
            seed, evaluator, 2.0, sims, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False
        )
    return pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000000, False, seed, False)


def mcts_rate(name, seconds, seed, sims):
    game = load(name)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    kind = "ismcts" if short_name(name) in ISMCTS_GAMES else "mcts"
    rng = random.Random(seed)
    games = decisions = 0
    started = time.perf_counter()
    # Whole games, until the budget is spent.
    while True:
        bots = [make_bot(game, kind, sims, seed + 1000 * games + p) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
            else:
                action = bots[state.current_player()].step(state)
                decisions += 1
                state.apply_action(action)
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    # Both bots search every decision, forced ones included, with `sims`
    # simulations each.
    iterations = decisions * sims
    return {
        "bot": "ISMCTSBot" if kind == "ismcts" else "MCTSBot",
        "games": games,
        "decisions": decisions,
        "iterations": iterations,
        "seconds": elapsed,
        "rate": iterations / elapsed,
        "decisions_per_game": decisions / games,
    }


def cfr_rate(name, seconds):
    game = load(name)
    solver = pyspiel.CFRPlusSolver(game)
    iterations = 0
    started = time.perf_counter()
    while True:
        solver.evaluate_and_update_policy()
        iterations += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    nash_conv = pyspiel.nash_conv(game, solver.average_policy())
    return {"iterations": iterations, "seconds": elapsed, "rate": iterations / elapsed, "nash_conv": nash_conv}


def mccfr_rate(name, seconds, sampling):
    game = load(name)
    if sampling == "external":
        solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=1)
    elif sampling == "outcome":
        solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=1)
    else:
        raise ValueError(f"unknown sampling {sampling!r}")
    iterations = 0
    started = time.perf_counter()
    while True:
        # A batch between looks at the clock, so reading it costs little.
        for _ in range(64):
            solver.run_iteration()
        iterations += 64
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    nash_conv = pyspiel.nash_conv(game, solver.average_policy())
    return {"iterations": iterations, "seconds": elapsed, "rate": iterations / elapsed, "nash_conv": nash_conv}


def run(command):
    measure = command["measure"]
    name = command["game"]
    seconds = float(command.get("seconds", 1.0))
    seed = int(command.get("seed", 1))
    try:
        if measure == "random":
            out = random_rate(name, seconds, seed)
        elif measure == "mcts":
            out = mcts_rate(name, seconds, seed, int(command.get("sims", 400)))
        elif measure == "cfr":
            out = cfr_rate(name, seconds)
        elif measure == "mccfr":
            out = mccfr_rate(name, seconds, command.get("sampling", "external"))
        elif measure == "length":
            out = length(name, seconds, seed)
        else:
            raise ValueError(f"unknown measure {measure!r}")
    except Exception as e:  # an answer for every command, so the caller never hangs
        return {"ok": False, "measure": measure, "game": name, "error": f"{type(e).__name__}: {e}"}
    out.update({"ok": True, "measure": measure, "game": name})
    return out


def main(argv):
    if argv[1:2] == ["--serve"]:
        print(json.dumps({"ok": True, "ready": True, "pyspiel": getattr(pyspiel, "__version__", "?")}), flush=True)
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(run(json.loads(line))), flush=True)
        return 0
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    command = {"measure": argv[1], "game": argv[2]}
    if argv[1].startswith("mccfr-"):
        command = {"measure": "mccfr", "sampling": argv[1][len("mccfr-"):], "game": argv[2]}
    if len(argv) > 3:
        command["seconds"] = argv[3]
    if len(argv) > 4:
        command["seed"] = argv[4]
    if len(argv) > 5:
        command["sims"] = argv[5]
    out = run(command)
    print(json.dumps(out))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
