; A block folds; so does a run of comments.
(block) @fold
(comment) @fold
