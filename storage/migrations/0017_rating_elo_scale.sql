-- MMA ratings on the Elo scale (RULINGS 8, rules/rating.py). Recomputing them needs the rating model, which SQL does
-- not have: at start-up, after the migrations, storage.ratings.RatingRepository.recompute rebuilds every rating and
-- every stored change from the rated matches in order, once for each model (rules.rating.MODEL_NAME), and records
-- it here. A later change of the model's constants is recomputed the same way, with no migration of its own.

CREATE TABLE mma_rating_models (
    model         TEXT PRIMARY KEY,       -- rules.rating.MODEL_NAME the stored ratings were computed with
    recomputed_at REAL NOT NULL,          -- unix time
    matches       INTEGER NOT NULL        -- rated matches recomputed
);
