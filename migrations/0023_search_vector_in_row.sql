-- An article's search vector stays in its row (compressed), and html and body_text go out of line
-- first. Ranked search reads the vector of every row it returns (to test the match and to compute
-- the distance): out of line, each row cost ~7 more buffers (the TOAST index and chunks), ~1,500
-- for a word's 200 nearest matches against ~320 in the row. New and edited vectors are stored so
-- from now on; 0024 stores the existing ones again. (Apart, because this statement locks the table
-- against reads until its transaction ends.)
alter table article alter column search_vector set storage main;
