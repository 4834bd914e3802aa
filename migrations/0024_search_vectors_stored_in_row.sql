-- The existing search vectors stored again, in their rows (0023): an unchanged value would keep its
-- TOAST pointer. Readers go on reading meanwhile; an edit of an article waits for it (~4 ms an
-- article: 110,000 took 7 minutes on a 2-core machine, most of it updating the search indexes).
-- The card revision moves with the vector, so `set_updated_at` leaves updated_at alone.
update article set search_vector = search_vector || ''::tsvector, card_revision = nextval('article_card_revision_seq');
