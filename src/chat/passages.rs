//! Passages: an article's text cut into short runs of whole sentences, and the choice of the best
//! ones within a token budget. Pure functions; the ranking itself is PostgreSQL's (`retrieval`).

/// A passage holds at most this many words (a sentence longer than that is cut).
pub const PASSAGE_WORDS: usize = 90;
/// Passages sent to the model or shown, at most.
pub const MAX_PASSAGES: usize = 6;
/// Passages of one article, at most: the answer draws on several articles when it can.
pub const MAX_PER_ARTICLE: usize = 3;
/// The passages' share of the prompt, in tokens (estimated at 4 characters a token).
pub const TOKEN_BUDGET: usize = 1500;

/// Sentences of `text` (whitespace collapsed), each ending with its punctuation.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for word in text.split_whitespace() {
        current.push(word);
        if word.ends_with(['.', '?', '!']) && !is_abbreviation(word) {
            out.push(current.join(" "));
            current.clear();
        }
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

/// "e.g." or "U.S." end no sentence.
fn is_abbreviation(word: &str) -> bool {
    let core = word.trim_end_matches('.');
    core.contains('.') || matches!(core.to_lowercase().as_str(), "mr" | "mrs" | "ms" | "dr" | "vs" | "etc" | "inc" | "no" | "approx")
}

/// `text` cut into passages of whole sentences, each at most `PASSAGE_WORDS` words.
pub fn split(text: &str) -> Vec<String> {
    let mut passages = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let sentences = sentences(text);
    for sentence in &sentences {
        let words: Vec<&str> = sentence.split_whitespace().collect();
        if !current.is_empty() && current.len() + words.len() > PASSAGE_WORDS {
            passages.push(current.join(" "));
            current.clear();
        }
        for chunk in words.chunks(PASSAGE_WORDS) {
            if current.len() + chunk.len() > PASSAGE_WORDS {
                passages.push(current.join(" "));
                current.clear();
            }
            current.extend_from_slice(chunk);
        }
    }
    if !current.is_empty() {
        passages.push(current.join(" "));
    }
    passages
}

/// Estimated tokens of a text.
pub fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// A ranked passage: which article (by its index among the candidates), its text, its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub article: usize,
    pub text: String,
    pub score: f64,
}

/// The best passages that fit the budget: matching ones only (score above 0), best first, at most
/// `MAX_PER_ARTICLE` an article and `MAX_PASSAGES` in all. Ties go to the better-ranked article.
pub fn choose(mut scored: Vec<Scored>) -> Vec<Scored> {
    scored.retain(|p| p.score > 0.0);
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.article.cmp(&b.article)));
    let mut chosen: Vec<Scored> = Vec::new();
    let mut budget = TOKEN_BUDGET;
    for passage in scored {
        if chosen.len() == MAX_PASSAGES {
            break;
        }
        let cost = tokens(&passage.text);
        if cost > budget || chosen.iter().filter(|c| c.article == passage.article).count() == MAX_PER_ARTICLE {
            continue;
        }
        budget -= cost;
        chosen.push(passage);
    }
    chosen
}

/// Words of a question as a websearch query that matches any of them ("copper or outlook"): a
/// question read as "all these words" would rarely match a whole article. Punctuation, quotes and
/// minus signs (websearch syntax) are dropped, and so is the word "or" itself.
pub fn any_word_query(question: &str) -> String {
    question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("or"))
        .take(32)
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passages_keep_whole_sentences_within_the_word_limit() {
        let sentence = "Copper prices rose again this week, e.g. in London. ";
        let text = sentence.repeat(40);
        let passages = split(&text);
        assert!(passages.len() > 1);
        for passage in &passages {
            assert!(passage.split_whitespace().count() <= PASSAGE_WORDS, "{passage}");
            assert!(passage.ends_with("London."), "{passage}");
        }
        assert_eq!(passages.join(" "), text.trim());
        // One sentence longer than a passage is cut.
        let long = "word ".repeat(PASSAGE_WORDS * 2 + 5);
        assert_eq!(split(&long).len(), 3);
        assert!(split("  ").is_empty());
    }

    #[test]
    fn the_best_matching_passages_fit_the_budget_and_spread_over_articles() {
        let passage = |article, score| Scored { article, text: "word ".repeat(40), score };
        let scored = vec![passage(0, 0.9), passage(0, 0.8), passage(0, 0.7), passage(0, 0.6), passage(1, 0.5), passage(2, 0.0)];
        let chosen = choose(scored);
        let picked: Vec<(usize, f64)> = chosen.iter().map(|p| (p.article, p.score)).collect();
        assert_eq!(picked, vec![(0, 0.9), (0, 0.8), (0, 0.7), (1, 0.5)]);
        let huge = vec![Scored { article: 0, text: "x".repeat(TOKEN_BUDGET * 4 + 4), score: 1.0 }, passage(1, 0.1)];
        assert_eq!(choose(huge).len(), 1);
    }

    #[test]
    fn questions_become_any_word_queries_without_websearch_syntax() {
        assert_eq!(
            any_word_query("What's the \"copper\" outlook -now, or later?"),
            "What or s or the or copper or outlook or now or later"
        );
        assert_eq!(any_word_query("?!"), "");
    }
}
