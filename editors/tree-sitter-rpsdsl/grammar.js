/**
 * @file The rpsdsl rules language (`.rules` files), for editors:
 *   highlighting, folding and indentation in Helix, Neovim and Zed.
 *
 * `grammar/rules.pest` in the repository is the language's truth; this
 * grammar is deliberately looser. It knows the declarations at the top of
 * a file (their keyword and the name they declare), blocks, calls,
 * brackets and every word, so that it parses every file `rpsdsl check`
 * accepts without an error node, and keeps parsing while the designer
 * types. It does not know statements or precedence: `rpsdsl lsp` gives
 * the full meaning.
 */

/// The declarations that name something: `procedure NAME ...`.
const NAMING = ['procedure', 'trigger', 'hook', 'option', 'var', 'constant', 'table', 'kinds', 'group', 'board'];

/// The other declarations.
const OTHER = ['game', 'players', 'use', 'extends', 'display', 'beats', 'pieces', 'zones', 'setup', 'flow',
  'score', 'result', 'anytime'];

/// Reserved words that may stand inside a declaration, after its keyword.
const WITHIN = ['player', 'let', 'set', 'add', 'to', 'if', 'else', 'for', 'in', 'loop', 'while', 'repeat', 'times',
  'break', 'return', 'each', 'chooses', 'secretly', 'from', 'draft', 'shuffle', 'deal', 'move', 'all', 'of',
  'reveal', 'win', 'declare', 'draw', 'end', 'and', 'or', 'not', 'at', 'most', 'fewest', 'then', 'when', 'where',
  'per', 'with', 'rhai', 'phase', 'step', 'race', 'calls', 'timed', 'hide', 'ring', 'link', 'wraps', 'graph'];

/// Declaration words that are also values inside a block (`score`,
/// `players`, `end game`, ...).
const ALSO_INSIDE = ['game', 'players', 'score', 'use', 'display', 'kinds', 'beats', 'option', 'var', 'pieces',
  'group', 'board', 'zones', 'setup', 'flow', 'procedure', 'trigger', 'hook', 'result', 'extends', 'override',
  'constant', 'anytime'];

module.exports = grammar({
  name: 'rpsdsl',

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat($._declaration),

    _declaration: $ => choice($.named_declaration, $.declaration, $.override_declaration),

    named_declaration: $ => seq(
      field('keyword', choice(...NAMING)),
      field('name', $.identifier),
      repeat($._top_part),
    ),

    declaration: $ => seq(field('keyword', choice(...OTHER)), repeat($._top_part)),

    override_declaration: $ => seq(
      'override',
      choice(
        $.named_declaration,
        $.declaration,
        seq(field('keyword', choice('phase', 'step')), field('name', $.identifier), $.block),
      ),
    ),

    // What follows a declaration's keyword: anything but the start of the
    // next declaration.
    _top_part: $ => choice($._atom, $.block, ...WITHIN, $.of_declared),

    // `var seen per space of table = false`: a declaration word named after
    // `of` (a board called `table`) is a name there, not the next declaration.
    of_declared: $ => prec(1, seq('of', choice(...NAMING, ...OTHER))),

    // Inside braces, brackets and parentheses every word may stand.
    _part: $ => choice($._atom, $.block, ...WITHIN, ...ALSO_INSIDE, 'table'),

    _atom: $ => choice(
      $.identifier,
      $.number,
      $.string,
      $.boolean,
      $.operator,
      $.call,
      $.parenthesized,
      $.bracketed,
      $.tie_breaker,
    ),

    block: $ => seq('{', repeat($._part), '}'),

    parenthesized: $ => seq('(', repeat($._part), ')'),

    bracketed: $ => seq('[', repeat($._part), ']'),

    // `duel()`, `challenge(attacker, defender)`: a name touching its `(`.
    call: $ => seq(field('function', $.identifier), token.immediate('('), repeat($._part), ')'),

    operator: _ => token(choice('..', '--', '->', '==', '!=', '<=', '>=', '<', '>', '=', '+', '-', '*', '/', '%',
      '|', ',', ':', ';', '.', '!', '&', '?', '@', '$', '^', '~', "'", '\\')),

    tie_breaker: _ => 'tie-breaker',

    boolean: _ => choice('true', 'false'),

    number: _ => /\d+/,

    string: _ => /"[^"\n]*"/,

    comment: _ => token(seq('#', /[^\n]*/)),

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,
  },
});
