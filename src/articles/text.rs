//! The text of an article body: what the publish check calls "text" and what full-text search
//! indexes. Read with html5ever's tokenizer, so entities are decoded as a browser decodes them.

use std::cell::RefCell;

use html5ever::{
    tendril::StrTendril,
    tokenizer::{BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts},
};

/// Elements that end a run of text: their text must not run into the next block's.
const BREAKS: &[&str] =
    &["p", "br", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "figcaption", "ul", "ol"];

/// Elements whose presence alone makes a body (an image, a PDF page, an embedded player, an
/// editor block), though they hold no text.
const MEDIA: &[&str] = &["img", "iframe"];

#[derive(Default)]
struct TextSink {
    text: RefCell<String>,
    has_media: RefCell<bool>,
}

impl TokenSink for TextSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match token {
            Token::CharacterTokens(text) => self.text.borrow_mut().push_str(&text),
            Token::TagToken(tag) => {
                let name: &str = &tag.name;
                if BREAKS.contains(&name) {
                    self.text.borrow_mut().push(' ');
                }
                let is_block = tag.kind == TagKind::StartTag
                    && tag.attrs.iter().any(|a| matches!(&*a.name.local, "data-promotional-content-id" | "data-chart-id"));
                if tag.kind == TagKind::StartTag && MEDIA.contains(&name) || is_block {
                    *self.has_media.borrow_mut() = true;
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// An article body's text, whitespace collapsed, and whether it holds media.
pub struct BodyText {
    pub text: String,
    pub has_media: bool,
}

impl BodyText {
    /// The publish check's "text absent": neither words nor media.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && !self.has_media
    }
}

pub fn body_text(html: &str) -> BodyText {
    let tokenizer = Tokenizer::new(TextSink::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    let sink = tokenizer.sink;
    let text = sink.text.into_inner().split_whitespace().collect::<Vec<_>>().join(" ");
    BodyText { text, has_media: sink.has_media.into_inner() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_separated_and_entities_decoded() {
        let body = body_text("<h1>Oil&nbsp;&amp; gas</h1><p>Brent <strong>rose</strong></p><ul><li>one</li><li>two</li></ul>");
        assert_eq!(body.text, "Oil & gas Brent rose one two");
        assert!(!body.has_media);
    }

    #[test]
    fn empty_paragraphs_are_no_text_but_media_is_a_body() {
        assert!(body_text("<p><br></p><p>   </p>").is_empty());
        let image = body_text(r#"<p>Rates<img src="/uploads/0123456789abcdef0123456789abcdef.png" alt="chart"></p>"#);
        assert!(image.has_media);
        // The text (what search indexes and the chat quotes) never carries the file's link.
        assert_eq!(image.text, "Rates");
        assert!(!body_text(r#"<div data-chart-id="c1"></div>"#).is_empty());
    }
}
