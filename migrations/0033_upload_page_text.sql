-- The text of a PDF page (issue 38): the image `POST /upload-file` renders of a page keeps that
-- page's text, extracted by poppler's `pdftotext`, so that an article made of PDF pages is
-- readable by screen readers (the article page offers it beside each page) and findable (an
-- article's search text takes the text of the pages it shows). Null for every other upload.
-- No kept value reads these columns: the article page reads them per request, through the same
-- entitlement check as the body.
alter table upload
    add column pdf_page integer check (pdf_page > 0),
    add column page_text text check (pdf_page is not null or page_text is null);
