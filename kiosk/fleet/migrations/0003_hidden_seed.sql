-- Hands against the computer are dealt from a hidden seed of 128 secret bits (games/rng.py),
-- kept by the play log as decimal text in plays.hidden_seed (its migration 4; `seed` is NULL
-- then). The centre keeps it too, so the office can replay such a hand from its rows.
ALTER TABLE plays ADD COLUMN hidden_seed text;
