; One level in for each `{ ... }`.
(block "{" @indent.begin)
(block "}" @indent.end @indent.branch)
