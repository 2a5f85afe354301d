;; Highlighting for rpsdsl `.rules` files (Helix, Neovim, Zed).
;; The reserved words are the grammar's `keyword` rule (grammar/rules.pest).

(comment) @comment

(string) @string

(number) @number

(boolean) @constant.builtin

[
  "game" "players" "player" "use" "display" "kinds" "beats" "option"
  "var" "pieces" "group" "board" "zones" "setup" "flow" "procedure"
  "trigger" "hook" "score" "result" "let" "set" "add" "to"
  "if" "else" "for" "in" "loop" "while" "repeat" "times"
  "break" "return" "each" "chooses" "secretly" "from" "draft" "shuffle"
  "deal" "move" "all" "of" "reveal" "win" "declare" "draw"
  "end" "and" "or" "not" "at" "most" "fewest" "then"
  "when" "where" "per" "with" "rhai" "extends" "override" "constant"
  "phase" "step" "anytime" "race" "calls" "timed" "hide" "ring"
  "link" "wraps" "graph"
  "table"
] @keyword

(tie_breaker) @keyword

; Words that mean something in one form only and may also be names
; (`count`, `first`, `top of`...): coloured as built-ins.
((identifier) @function.builtin
  (#any-of? @function.builtin
    "action" "adjacent" "after" "as" "bool" "bottom"
    "by" "chain" "colour" "count" "every" "exists" "faces" "fanned" "shape" "text"
    "first" "forward" "grid" "hex" "hidden" "int" "is"
    "items" "joins" "kind" "lines" "list" "longest" "next"
    "off" "on" "one" "opponent" "owner" "public" "roll"
    "run" "size" "space" "sum" "table" "top"
    "type" "unordered" "value"))

; What a declaration names.
(named_declaration
  keyword: ["procedure" "hook"]
  name: (identifier) @function)

(named_declaration
  keyword: ["option" "var" "constant" "table"]
  name: (identifier) @variable)

(named_declaration
  keyword: ["kinds" "group" "board"]
  name: (identifier) @type)

(named_declaration
  keyword: "trigger"
  name: (identifier) @function)

(override_declaration
  name: (identifier) @label)

(call
  function: (identifier) @function.call)

; Piece types, kinds and seats are capitalised by convention.
((identifier) @type
  (#match? @type "^[A-Z]"))

(identifier) @variable

(operator) @operator

["{" "}" "(" ")" "[" "]"] @punctuation.bracket
