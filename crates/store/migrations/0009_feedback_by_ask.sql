-- One vote and one right rule per user per answer (`Store::add_feedback`
-- replaces a user's earlier one): found by the answer's key and the user.
-- Additive.

CREATE INDEX arbiter_feedback_by_ask ON arbiter_feedback (ask, user_id);
