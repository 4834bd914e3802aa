-- The title and summary vectors of the existing articles (0030). Apart, because 0030's statement
-- locks the table against reads until its transaction ends. The card revision moves with the
-- vector, so `set_updated_at` leaves updated_at alone.
update article
set title_summary_vector = setweight(to_tsvector('english', title), 'A')
        || setweight(to_tsvector('english', coalesce(summary, '')), 'B'),
    card_revision = nextval('article_card_revision_seq');
