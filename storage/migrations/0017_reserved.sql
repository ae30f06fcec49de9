-- Reserved: migration 0017 belongs to work merged from another branch (per-server settings, member erasure,
-- ratings). This empty placeholder only keeps the numbering without gaps on this branch; the merge replaces it.
SELECT 1;
