//! The HTML sanitiser that every stored article, template and promotion page goes through
//! (DESIGN §7: HTML is sanitised on the server with an allow-list before it is stored). It is
//! ammonia (an html5ever parser, so malformed, nested and entity-obfuscated markup is read the way
//! a browser reads it) set up to keep what the article editor writes and nothing else.
//!
//! # Allow-list
//!
//! Elements; any other element is removed and its text kept (tables, spec: "tables are stripped"),
//! and `script`, `style`, `svg`, `math`, `object`, `embed`, `applet`, `noscript`, `template`,
//! `textarea`, `select`, ... are removed with their content.
//! - blocks: `p`, `h1`–`h6`, `blockquote`, `pre`, `code`, `hr`, `br`, `div`, `span`, `figure`,
//!   `figcaption`; lists: `ul`, `ol` (`start`), `li` (`value`); formats: `strong`, `b`, `em`, `i`,
//!   `u`, `s`, `strike`, `sub`, `sup`, `mark` (Lexical's highlight).
//! - `a`: `href` with http, https or mailto, or a relative or fragment link; `target="_blank"`;
//!   `title`. Every link gets `rel="noopener noreferrer"`, so a page opened in a new tab cannot
//!   reach back to ours.
//! - `img` (`alt`, `width`, `height`): only our uploads, `/uploads/<name>` or
//!   `{public_url}/uploads/<name>` with a generated name (`uploads::is_upload_name`); the spec only
//!   lets the editor insert uploaded images (PDFs become page images there too), and outside images
//!   could track readers. An image with any other `src` is removed.
//! - `iframe`: only `https://player.vimeo.com/video/…`, `https://open.spotify.com/embed/…` and
//!   `https://www.buzzsprout.com/…`, the spec's three embed providers, stored in the URL's
//!   canonical form; with `width`, `height`, `title`, `frameborder`, `loading`, `allowfullscreen`
//!   and `allow` (autoplay, clipboard-write, encrypted-media, fullscreen, picture-in-picture). Any
//!   other iframe is removed whole, and an iframe's content is dropped (browsers never show it).
//! - editor blocks, rendered by the reader page from their id; no other `data-*` is kept:
//!   `<div data-promotional-content-id="<24 hex>">` (a promotional content block) and
//!   `<div data-chart-id="<1–64 of A-Z a-z 0-9 _ ->">` (an embedded chart).
//! - on every element: `style` (below); `class`, only names starting with `editor-` (the editor
//!   theme's classes, so content cannot borrow the app's own classes); `dir` (ltr, rtl, auto).
//!
//! `style` keeps only these declarations, each rewritten as `name: value;`:
//! `line-height` (a plain number or `normal`: the editor offers Default, 1.2, 1.5, 2), `font-size`
//! and `text-indent` (px), `text-align`, `font-weight`, `font-style`, `text-decoration`,
//! `white-space` (Lexical's exported text carries `white-space: pre-wrap`), `color` and
//! `background-color` (`#hex`, `rgb()`/`rgba()`/`hsl()`/`hsla()` of numbers, or a keyword). Values
//! are matched character by character, so `url()`, `expression()`, escapes, comments, quotes and
//! `!important` never pass.
//!
//! Everything else goes: event handlers, `id` (DOM clobbering), `srcset`, `srcdoc`, forms, comments,
//! and every URL whose scheme is not http, https or mailto (`javascript:`, `vbscript:`, `data:`,
//! however written: the parser decodes entities and the URL parser drops tabs, newlines and
//! leading control characters, as browsers do).
//!
//! The output is stable: cleaning it again returns it unchanged, so saving an article twice does not
//! change it.

use std::{
    borrow::Cow,
    collections::{HashMap, HashSet},
};

use ammonia::{Builder, Url};

use crate::{ids, uploads::is_upload_name};

#[rustfmt::skip]
const TAGS: &[&str] = &[
    "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "u", "s", "strike", "sub", "sup", "mark",
    "blockquote", "code", "pre", "hr", "ul", "ol", "li", "span", "div", "figure", "figcaption", "a", "img", "iframe",
];

/// Removed with everything inside: their content is code, or markup that would show as text.
#[rustfmt::skip]
const REMOVED_WITH_CONTENT: &[&str] = &[
    "script", "style", "svg", "math", "object", "embed", "applet", "noscript", "noembed", "noframes", "template",
    "textarea", "select", "title", "xmp", "plaintext",
];

const GENERIC_ATTRIBUTES: &[&str] = &["style", "class", "dir"];

const TAG_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("a", &["href", "target", "title"]),
    ("img", &["src", "alt", "width", "height"]),
    ("iframe", &["src", "width", "height", "title", "frameborder", "loading", "allow", "allowfullscreen"]),
    ("div", &["data-promotional-content-id", "data-chart-id"]),
    ("ol", &["start"]),
    ("li", &["value"]),
];

/// The embed providers (host, path prefix) the spec allows.
pub const EMBEDS: &[(&str, &str)] =
    &[("player.vimeo.com", "/video/"), ("open.spotify.com", "/embed/"), ("www.buzzsprout.com", "/")];

/// Permissions an embedded player may be given (`iframe allow`).
const IFRAME_FEATURES: &[&str] =
    &["autoplay", "clipboard-write", "encrypted-media", "fullscreen", "picture-in-picture"];

/// The configured sanitiser; build it once (it holds the public URL that marks our uploads).
pub struct Sanitizer {
    builder: Builder<'static>,
}

impl Sanitizer {
    /// `public_url` is `Config::public_url()`: images at `{public_url}/uploads/<name>` are ours.
    pub fn new(public_url: &str) -> Sanitizer {
        let uploads_url = format!("{}/uploads/", public_url.trim_end_matches('/'));
        let tag_attributes: HashMap<&str, HashSet<&str>> =
            TAG_ATTRIBUTES.iter().map(|(tag, attributes)| (*tag, attributes.iter().copied().collect())).collect();
        let mut builder = Builder::empty();
        builder
            .tags(TAGS.iter().copied().collect())
            .clean_content_tags(REMOVED_WITH_CONTENT.iter().copied().collect())
            .generic_attributes(GENERIC_ATTRIBUTES.iter().copied().collect())
            .tag_attributes(tag_attributes)
            .url_schemes(HashSet::from(["http", "https", "mailto"]))
            .link_rel(Some("noopener noreferrer"))
            .strip_comments(true)
            .attribute_filter(move |element, attribute, value| {
                filter_attribute(&uploads_url, element, attribute, value)
            });
        Sanitizer { builder }
    }

    /// The allowed part of `html`.
    pub fn clean(&self, html: &str) -> String {
        // Removing an element can leave nesting the parser never builds (an `h2` that sat in a
        // table inside an `h1`), which reading the output again would repair. A second pass
        // settles that, so the stored HTML is stable.
        let once = self.clean_once(html);
        self.clean_once(&once)
    }

    fn clean_once(&self, html: &str) -> String {
        finish_output(&self.builder.clean(html).to_string())
    }
}

/// Sanitises `html` for storage; see the module doc for what is kept.
pub fn sanitize_html(html: &str, public_url: &str) -> String {
    Sanitizer::new(public_url).clean(html)
}

/// Checks the values of the attributes ammonia let through by name (it has already refused `href`
/// and `src` with another scheme). `None` drops the attribute.
fn filter_attribute<'u>(uploads_url: &str, element: &str, attribute: &str, value: &'u str) -> Option<Cow<'u, str>> {
    let keep = |allowed: bool| allowed.then_some(Cow::Borrowed(value));
    match (element, attribute) {
        (_, "style") => clean_style(value).map(Cow::Owned),
        (_, "class") => editor_classes(value).map(Cow::Owned),
        (_, "dir") => keep(matches!(value, "ltr" | "rtl" | "auto")),
        ("a", "target") => keep(value == "_blank"),
        ("img", "src") => keep(is_our_upload(uploads_url, value)),
        ("iframe", "src") => allowed_embed(value).map(Cow::Owned),
        ("img" | "iframe", "width" | "height") => keep(is_dimension(value)),
        ("iframe", "frameborder") => keep(matches!(value, "0" | "1")),
        ("iframe", "loading") => keep(matches!(value, "lazy" | "eager")),
        ("iframe", "allow") => allowed_features(value).map(Cow::Owned),
        // A boolean attribute: its value means nothing, so store it empty.
        ("iframe", "allowfullscreen") => Some(Cow::Borrowed("")),
        ("div", "data-promotional-content-id") => keep(ids::is_valid_id(value)),
        ("div", "data-chart-id") => keep(is_chart_id(value)),
        ("ol", "start") | ("li", "value") => keep(is_number(value, 4)),
        // `href` (scheme checked by ammonia), `alt` and `title`: text, escaped on output.
        _ => Some(Cow::Borrowed(value)),
    }
}

fn is_our_upload(uploads_url: &str, src: &str) -> bool {
    src.strip_prefix("/uploads/").or_else(|| src.strip_prefix(uploads_url)).is_some_and(is_upload_name)
}

/// The canonical form of an embed URL from one of the allowed providers. Checking the parsed URL
/// (as the browser will read it) rather than the text defeats `https://player.vimeo.com.evil/`,
/// `https://x@evil/` and backslash tricks.
fn allowed_embed(src: &str) -> Option<String> {
    let url = Url::parse(src).ok()?;
    let allowed = url.scheme() == "https"
        && url.username().is_empty()
        && url.password().is_none()
        && url.port().is_none()
        && EMBEDS.iter().any(|(host, path)| url.host_str() == Some(host) && url.path().starts_with(path));
    allowed.then(|| url.to_string())
}

fn allowed_features(allow: &str) -> Option<String> {
    let features: Vec<&str> = allow.split(';').map(str::trim).filter(|f| IFRAME_FEATURES.contains(f)).collect();
    (!features.is_empty()).then(|| features.join("; "))
}

fn editor_classes(class: &str) -> Option<String> {
    let is_editor_class = |name: &&str| {
        name.strip_prefix("editor-").is_some_and(|rest| {
            !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
    };
    let classes: Vec<&str> = class.split_ascii_whitespace().filter(is_editor_class).collect();
    (!classes.is_empty()).then(|| classes.join(" "))
}

/// A pixel count or percentage, as `width="640"` or `width="100%"`.
fn is_dimension(value: &str) -> bool {
    is_number(value.strip_suffix('%').unwrap_or(value), 4)
}

fn is_number(value: &str, max_digits: usize) -> bool {
    (1..=max_digits).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit())
}

fn is_chart_id(value: &str) -> bool {
    (1..=64).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The allowed declarations of a `style` attribute, rewritten as `name: value;`. Splitting on `;`
/// is not a CSS parser, but it does not need to be: only what we write back is ever used, and
/// every value we write is matched whole against a plain pattern.
fn clean_style(style: &str) -> Option<String> {
    let declarations: Vec<String> = style
        .split(';')
        .filter_map(|declaration| {
            let (property, value) = declaration.split_once(':')?;
            let (property, value) = (property.trim().to_ascii_lowercase(), value.trim());
            is_allowed_style(&property, &value.to_ascii_lowercase()).then(|| format!("{property}: {value};"))
        })
        .collect();
    (!declarations.is_empty()).then(|| declarations.join(" "))
}

/// `value` is lowercase.
fn is_allowed_style(property: &str, value: &str) -> bool {
    match property {
        "line-height" => value == "normal" || is_decimal(value),
        "font-size" | "text-indent" => value.strip_suffix("px").is_some_and(is_decimal),
        "text-align" => matches!(value, "left" | "right" | "center" | "justify" | "start" | "end"),
        "font-weight" => {
            matches!(value, "normal" | "bold" | "bolder" | "lighter")
                || matches!(value.as_bytes(), [b'1'..=b'9', b'0', b'0'])
        }
        "font-style" => matches!(value, "normal" | "italic" | "oblique"),
        "text-decoration" => {
            !value.is_empty()
                && value
                    .split_ascii_whitespace()
                    .all(|line| matches!(line, "none" | "underline" | "line-through" | "overline"))
        }
        "white-space" => matches!(value, "normal" | "nowrap" | "pre" | "pre-wrap" | "pre-line" | "break-spaces"),
        "color" | "background-color" => is_plain_color(value),
        _ => false,
    }
}

/// `12`, `1.5`: digits with at most one point, starting with a digit.
fn is_decimal(value: &str) -> bool {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, "0"));
    is_number(whole, 4) && is_number(fraction, 4)
}

/// `#1a2b3c`, `rgb(1, 2, 3)`, `hsla(120 50% 50% / 0.5)` or a keyword such as `red`; `value` is
/// lowercase.
fn is_plain_color(value: &str) -> bool {
    if let Some(hex) = value.strip_prefix('#') {
        return matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let arguments = ["rgb(", "rgba(", "hsl(", "hsla("]
        .iter()
        .find_map(|function| value.strip_prefix(function))
        .and_then(|rest| rest.strip_suffix(')'));
    if let Some(arguments) = arguments {
        return arguments.bytes().all(|b| b.is_ascii_digit() || b" .,%/".contains(&b));
    }
    (1..=20).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_lowercase())
}

/// Finishes ammonia's output: removes the `img` and `iframe` elements whose `src` was refused
/// (ammonia filters attributes but cannot drop an element for an attribute's value), drops every
/// iframe's content, and doubles a newline that opens a `pre` (the parser eats the first one, and
/// html5ever does not write it back). This scans ammonia's own serialisation, which is regular:
/// every `<` starts a tag (text and attribute values have `<`, `>` and `"` escaped, comments are
/// stripped), attributes are written ` name="value"`, `img` has no end tag, and an iframe's content
/// (raw text, the only unescaped text an allowed element can hold) runs to the first `</iframe>`.
fn finish_output(html: &str) -> String {
    const IFRAME_END: &str = "</iframe>";
    let is = |tag: &str, name: &str| {
        tag.strip_prefix('<').and_then(|t| t.strip_prefix(name)).is_some_and(|t| t.starts_with([' ', '>']))
    };
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let tag_len = rest.find('>').map_or(rest.len(), |end| end + 1);
        let (tag, after) = rest.split_at(tag_len);
        let has_src = tag.contains(" src=\"");
        rest = after;
        if is(tag, "iframe") {
            if has_src {
                out.push_str(tag);
                out.push_str(IFRAME_END);
            }
            rest = rest.find(IFRAME_END).map_or("", |end| &rest[end + IFRAME_END.len()..]);
        } else if has_src || !is(tag, "img") {
            out.push_str(tag);
            if is(tag, "pre") && rest.starts_with('\n') {
                out.push('\n');
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUBLIC_URL: &str = "https://insights.example.com";
    const UPLOAD: &str = "5f9b2c3e1a2b3c4d5e6f7a8b.png";

    fn clean(html: &str) -> String {
        sanitize_html(html, PUBLIC_URL)
    }

    /// Each element of sanitised `html` as (name, [(attribute, value)]), read from the form
    /// ammonia writes (`<name a="v">`, `<` escaped in text); panics on anything else, so a change of
    /// output form cannot make the checks below pass by not seeing a tag.
    fn elements(html: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut found = Vec::new();
        let mut rest = html;
        while let Some(start) = rest.find('<') {
            let end = rest[start..].find('>').unwrap_or_else(|| panic!("unclosed tag in {html}")) + start;
            let tag = &rest[start + 1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('/') {
                continue;
            }
            let (name, mut attributes) = tag.split_once(' ').unwrap_or((tag, ""));
            let mut pairs = Vec::new();
            while !attributes.is_empty() {
                let (attribute, after) =
                    attributes.split_once("=\"").unwrap_or_else(|| panic!("unexpected attribute in {html}"));
                let (value, after) = after.split_once('"').unwrap_or_else(|| panic!("unclosed value in {html}"));
                pairs.push((attribute.to_owned(), value.to_owned()));
                attributes = after.strip_prefix(' ').unwrap_or(after);
            }
            found.push((name.to_owned(), pairs));
        }
        found
    }

    /// A URL as a browser reads it: entities decoded, spaces and control characters gone.
    fn as_browser_reads(value: &str) -> String {
        let decoded = value.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        assert!(!decoded.contains("&#"), "numeric entity left in {value}");
        decoded.chars().filter(|c| !c.is_whitespace() && !c.is_control()).collect()
    }

    /// Asserts that sanitised `output` (of `input`) holds nothing that can run script, case-insensitively.
    fn assert_inert(input: &str, output: &str) {
        let lower = output.to_lowercase();
        #[rustfmt::skip]
        let forbidden_tags = [
            "<script", "<svg", "<math", "<object", "<embed", "<applet", "<form", "<input", "<button", "<textarea",
            "<select", "<meta", "<base", "<link", "<style", "<frame", "<body", "<table", "<details", "<marquee", "<!--",
        ];
        for needle in forbidden_tags {
            assert!(!lower.contains(needle), "{needle} kept\n  input:  {input}\n  output: {output}");
        }
        for (name, attributes) in elements(&lower) {
            assert!(TAGS.contains(&name.as_str()), "<{name}> kept\n  input:  {input}\n  output: {output}");
            for (attribute, value) in &attributes {
                let context = format!("{attribute}=\"{value}\" on <{name}>\n  input:  {input}\n  output: {output}");
                assert!(!attribute.starts_with("on"), "handler {context}");
                let forbidden =
                    ["srcset", "srcdoc", "formaction", "action", "xlink:href", "background", "data", "id", "ping"];
                assert!(!forbidden.contains(&attribute.as_str()), "forbidden attribute {context}");
                assert!(attribute != "href" || name == "a", "href {context}");
                let url = as_browser_reads(value);
                if ["href", "src", "style"].contains(&attribute.as_str()) {
                    for bad in ["javascript:", "vbscript:", "data:", "url(", "expression(", "\\"] {
                        assert!(!url.contains(bad), "{bad} in {context}");
                    }
                }
            }
            let src =
                attributes.iter().find(|(attribute, _)| attribute == "src").map(|(_, value)| as_browser_reads(value));
            match name.as_str() {
                "iframe" => {
                    let src = src.unwrap_or_else(|| panic!("iframe without src in {output}"));
                    let allowed = [
                        "https://player.vimeo.com/video/",
                        "https://open.spotify.com/embed/",
                        "https://www.buzzsprout.com/",
                    ];
                    assert!(allowed.iter().any(|prefix| src.starts_with(prefix)), "iframe {src} in {output}");
                }
                "img" => {
                    let src = src.unwrap_or_else(|| panic!("img without src in {output}"));
                    let name = src
                        .strip_prefix("/uploads/")
                        .or_else(|| src.strip_prefix("https://insights.example.com/uploads/"));
                    assert!(name.is_some_and(is_upload_name), "img {src} in {output}");
                }
                _ => {}
            }
        }
    }

    /// XSS vectors in the style of the OWASP XSS Filter Evasion Cheat Sheet (and a few known
    /// sanitiser bypasses), each of which must come out inert.
    const XSS_VECTORS: &[&str] = &[
        // script tags, every casing and form
        "<script>alert(1)</script>",
        "<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>",
        "<ScRiPt>alert(1)</sCrIpT>",
        "<script type=\"text/javascript\" src=\"//evil.example/x.js\" async defer></script>",
        "<SCRIPT/XSS SRC=\"http://xss.rocks/xss.js\"></SCRIPT>",
        "<SCRIPT/SRC=\"http://xss.rocks/xss.js\"></SCRIPT>",
        "<<SCRIPT>alert(\"XSS\");//\\<</SCRIPT>",
        "<SCRIPT SRC=http://xss.rocks/xss.js?< B >",
        "<<script>script>alert(1)<</script>/script>",
        "<scr<script>ipt>alert(1)</scr</script>ipt>",
        "<p>text<script>alert(1)",
        // images
        "<IMG SRC=\"javascript:alert('XSS');\">",
        "<IMG SRC=JaVaScRiPt:alert('XSS')>",
        "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
        "<img src=x onerror=alert(1)>",
        "<img src=`x` onerror=`alert(1)`>",
        "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\">",
        "<IMG SRC=# onmouseover=\"alert('xxs')\">",
        "<IMG SRC=/ onerror=\"alert(String.fromCharCode(88,83,83))\"></img>",
        "<img src=x:alert(alt) onerror=eval(src) alt=0>",
        "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
        "<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>",
        "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
        "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
        "<img src=\"/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.png\" ONERROR=\"alert(1)\" srcset=\"javascript:alert(1) 1x\">",
        "<img src=\"/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.png/../../evil.svg\">",
        "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
        "<IMG SRC=\"`<javascript:alert>`('XSS')\"",
        // links
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
        "<a href=\"jav\tascript:alert('XSS');\">x</a>",
        "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
        "<a href=\"jav&#x0A;ascript:alert(1)\">x</a>",
        "<a href=\"jav&#x0D;ascript:alert(1)\">x</a>",
        "<a href=\"jav\nascript:alert(1)\">x</a>",
        "<a href=\" &#14;  javascript:alert('XSS');\">x</a>",
        "<a href=\"\u{1}javascript:alert(1)\">x</a>",
        "<a href=\"java\0script:alert(1)\">x</a>",
        "<a href=\"&#106;avascript:alert(1)\">x</a>",
        "<a href=\"&#x6A;avascript&#x3A;alert(1)\">x</a>",
        "<a href=\"javascript&colon;alert(1)\">x</a>",
        "<a href=javascript&#58;alert(1)>x</a>",
        "<a href=\"vbscript:msgbox('XSS')\">x</a>",
        "<a href=\"VBScript:msgbox('XSS')\">x</a>",
        "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
        "<a href=\"https://ok.example\" OnClick=\"alert(1)\">x</a>",
        "<a href=\"x\" title=\"x\"onmouseover=\"alert(1)\">x</a>",
        "<a href=\"https://ok.example\" ping=\"https://evil.example\" target=\"javascript:alert(1)\">x</a>",
        // svg and math
        "<svg onload=alert(1)>",
        "<svg/onload=alert('XSS')>",
        "<svg><script>alert(1)</script></svg>",
        "<svg><a xlink:href=\"javascript:alert(1)\"><text x=\"20\" y=\"20\">XSS</text></a></svg>",
        "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
        "<math><maction actiontype=\"statusline\" xlink:href=\"javascript:alert(1)\">x</maction></math>",
        "<math href=\"javascript:alert(1)\">x</math>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<svg></p><style><a id=\"</style><img src=1 onerror=alert(1)>\">",
        // body, frames, iframes
        "<BODY ONLOAD=alert('XSS')>",
        "<body background=\"javascript:alert('XSS')\">",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<IFRAME SRC=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\"></IFRAME>",
        "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
        "<iframe src=http://xss.rocks/scriptlet.html <",
        "<iframe src=\"https://player.vimeo.com/video/1\" onload=\"alert(1)\" srcdoc=\"&lt;script&gt;alert(1)&lt;/script&gt;\"><img src=x onerror=alert(1)></iframe>",
        "<iframe src=\"https://player.vimeo.com.evil.example/video/1\"></iframe>",
        "<iframe src=\"https://player.vimeo.com@evil.example/video/1\"></iframe>",
        "<iframe src=\"https://player.vimeo.com\\@evil.example/video/1\"></iframe>",
        "<FRAMESET><FRAME SRC=\"javascript:alert('XSS');\"></FRAMESET>",
        // styles
        "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">x</DIV>",
        "<DIV STYLE=\"width: expression(alert('XSS'));\">x</DIV>",
        "<p style=\"color: red; background: url(&quot;javascript:alert(1)&quot;)\">x</p>",
        "<span style=\"color:expression(alert(1))\">x</span>",
        "<span style=\"color: re\\64; background-color: u\\rl(javascript:alert(1))\">x</span>",
        "<div style=\"behavior: url(xss.htc); -moz-binding: url(http://xss.rocks/xss.xml#xss)\">x</div>",
        "<p style=\"font-size: 12px /* */; color: red !important\">x</p>",
        "<XSS STYLE=\"xss:expression(alert('XSS'))\">",
        "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>",
        "<STYLE>BODY{-moz-binding:url(\"http://xss.rocks/xssmoz.xml#xss\")}</STYLE>",
        // head elements
        "<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">",
        "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
        "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K\">",
        "<BASE HREF=\"javascript:alert('XSS');//\">",
        // plugins and forms
        "<OBJECT TYPE=\"text/x-scriptlet\" DATA=\"http://xss.rocks/scriptlet.html\"></OBJECT>",
        "<object data=\"javascript:alert(1)\"></object>",
        "<EMBED SRC=\"data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIj48L3N2Zz4=\" type=\"image/svg+xml\" AllowScriptAccess=\"always\"></EMBED>",
        "<applet code=\"x.class\" codebase=\"http://evil.example\"></applet>",
        "<form action=\"javascript:alert(1)\"><input type=\"submit\"></form>",
        "<form><button formaction=\"javascript:alert(1)\">x</button></form>",
        "<input autofocus onfocus=alert(1)>",
        "<textarea autofocus onfocus=alert(1)>x</textarea>",
        "<select autofocus onfocus=alert(1)><option>x</option></select>",
        "<isindex action=javascript:alert(1) type=image>",
        // other handlers and mutation tricks
        "<details open ontoggle=alert(1)>",
        "<marquee onstart=alert(1)>x</marquee>",
        "<video><source onerror=\"alert(1)\"></video>",
        "<TABLE BACKGROUND=\"javascript:alert('XSS')\"><TD BACKGROUND=\"javascript:alert('XSS')\">x</TD></TABLE>",
        "<p title=\"</p><script>alert(1)</script>\">x</p>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
        "<div id=\"x\" data-promotional-content-id='5f9b2c3e1a2b3c4d5e6f7a8b\" onclick=\"alert(1)'>x</div>",
        "<div data-chart-id=\"1&quot; onmouseover=&quot;alert(1)\" data-evil=\"x\">x</div>",
        "<p><!-- <script>alert(1)</script> --></p>",
        "<template><script>alert(1)</script></template>",
        "<xmp><script>alert(1)</script></xmp>",
    ];

    #[test]
    fn xss_vectors_come_out_inert() {
        assert!(XSS_VECTORS.len() >= 40);
        for vector in XSS_VECTORS {
            let output = clean(vector);
            assert_inert(vector, &output);
        }
    }

    #[test]
    fn cleaning_any_vector_twice_changes_nothing() {
        for vector in XSS_VECTORS {
            let once = clean(vector);
            assert_eq!(clean(&once), once, "input: {vector}");
        }
    }

    #[test]
    fn nesting_left_by_removed_elements_is_settled_in_one_call() {
        let cases = [
            ("<h1><table><tr><td><h2>x</h2></td></tr></table></h1>", "<h1></h1><h2>x</h2>"),
            ("<ul><li><table><tr><td><li>x</li></td></tr></table></li></ul>", "<ul><li></li><li>x</li></ul>"),
            ("<p><button><p>x</p></button></p>", "<p></p><p>x</p><p></p>"),
        ];
        for (input, settled) in cases {
            assert_eq!(clean(input), settled, "{input}");
            assert_eq!(clean(settled), settled, "{input}");
        }
        let nested_links = clean("<a href=\"/a\"><table><tr><td><a href=\"/b\">in</a></td></tr></table></a>");
        assert_eq!(clean(&nested_links), nested_links);
    }

    #[test]
    fn newlines_opening_a_pre_survive_every_pass() {
        for input in ["<pre>\n\nx</pre>", "<pre>\n\n\nx</pre>", "<pre><code>\nx</code></pre>"] {
            let once = clean(input);
            assert_eq!(clean(&once), once, "{input}");
        }
        assert_eq!(clean("<pre>\n\nx</pre>"), "<pre>\n\nx</pre>");
    }

    #[test]
    fn the_sanitizer_can_be_shared_between_requests() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Sanitizer>();
    }

    #[test]
    fn refused_iframes_and_images_disappear_whole() {
        assert_eq!(clean("<p>a<iframe src=\"https://www.youtube.com/embed/x\"></iframe>b</p>"), "<p>ab</p>");
        assert_eq!(clean("<iframe src=\"https://evil.example/video/1\" width=\"1\"></iframe>"), "");
        assert_eq!(clean("<iframe width=\"640\"></iframe>"), "");
        assert_eq!(
            clean("<p><img src=\"https://evil.example/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.png\" alt=\"x\">x</p>"),
            "<p>x</p>"
        );
        assert_eq!(clean("<img src=\"https://cdn.example/a.png\"><img src=\"/uploads/x.png\"><img>"), "");
        assert_eq!(
            clean("<iframe src=\"https://player.vimeo.com/video/1\"><b>never shown</b></iframe>"),
            "<iframe src=\"https://player.vimeo.com/video/1\"></iframe>"
        );
    }

    #[test]
    fn tables_forms_and_handlers_go_but_text_stays() {
        assert_eq!(
            clean(
                "<table><caption>Cap</caption><colgroup><col></colgroup><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>"
            ),
            "CapA1"
        );
        assert_eq!(clean("<p onclick=\"x()\" id=\"a\" lang=\"en\">hi</p>"), "<p>hi</p>");
        assert_eq!(clean("<svg><text>drawn</text></svg><math><mi>x</mi></math>after"), "after");
        assert_eq!(clean("<p>a<!-- note -->b</p>"), "<p>ab</p>");
    }

    /// Everything the editor writes, in the form the sanitiser writes it.
    const ALLOWED_SAMPLE: &str = concat!(
        "<h1>Outlook</h1><h2>Rates</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>",
        "<p dir=\"ltr\" class=\"editor-paragraph\" style=\"line-height: 1.5;\">",
        "<span style=\"font-size: 18px;\">Big</span> <span style=\"white-space: pre-wrap;\">plain</span> ",
        "<strong>strong</strong> <b>b</b> <em>em</em> <i>i</i> <u>u</u> <s>s</s> <strike>strike</strike> ",
        "<sub>sub</sub> <sup>sup</sup> <code>code</code> <mark>mark</mark><br>next line</p>",
        "<p style=\"line-height: 1.2;\">a</p><p style=\"line-height: 2;\">b</p>",
        "<p style=\"text-align: center; text-indent: 20px;\">centred</p>",
        "<p><span style=\"color: #1a2b3c; background-color: rgb(255, 255, 0); font-weight: bold; ",
        "font-style: italic; text-decoration: underline line-through;\">styled</span></p>",
        "<blockquote>Quoted</blockquote><pre><code>let x = 1;</code></pre><hr>",
        "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol start=\"3\"><li value=\"3\">three</li></ol>",
        "<p><a href=\"https://example.com/report?a=1&amp;b=2\" target=\"_blank\" rel=\"noopener noreferrer\">report</a> ",
        "<a href=\"mailto:desk@example.com\" rel=\"noopener noreferrer\">mail</a> ",
        "<a href=\"/insights/browse/article/5f9b2c3e1a2b3c4d5e6f7a8b\" title=\"Read\" rel=\"noopener noreferrer\">read</a> ",
        "<a href=\"#notes\" rel=\"noopener noreferrer\">notes</a></p>",
        "<figure><img src=\"/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.png\" alt=\"Chart\" width=\"600\" height=\"400\">",
        "<figcaption>Caption</figcaption></figure>",
        "<p><img src=\"https://insights.example.com/uploads/5f9b2c3e1a2b3c4d5e6f7a8c.jpg\" alt=\"\">",
        "<img src=\"/uploads/5f9b2c3e1a2b3c4d5e6f7a8d.gif\"></p>",
        "<iframe src=\"https://player.vimeo.com/video/76979871\" width=\"640\" height=\"360\" frameborder=\"0\" ",
        "allow=\"autoplay; fullscreen; picture-in-picture\" allowfullscreen=\"\" title=\"Vimeo\"></iframe>",
        "<iframe src=\"https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5\" width=\"100%\" height=\"152\" ",
        "frameborder=\"0\" allow=\"autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture\" loading=\"lazy\"></iframe>",
        "<iframe src=\"https://www.buzzsprout.com/1234/5678?client_source=small_player&amp;iframe=true\" ",
        "width=\"100%\" height=\"200\" frameborder=\"0\"></iframe>",
        "<div data-promotional-content-id=\"5f9b2c3e1a2b3c4d5e6f7a8b\"></div>",
        "<div data-chart-id=\"sales-by-region_2024\"></div>",
    );

    #[test]
    fn everything_the_editor_writes_is_kept_exactly() {
        assert_eq!(clean(ALLOWED_SAMPLE), ALLOWED_SAMPLE);
        assert_inert(ALLOWED_SAMPLE, ALLOWED_SAMPLE);
    }

    #[test]
    fn the_struct_and_the_function_agree_and_a_trailing_slash_is_ignored() {
        let sanitizer = Sanitizer::new("https://insights.example.com/");
        assert_eq!(sanitizer.clean(ALLOWED_SAMPLE), ALLOWED_SAMPLE);
    }

    #[test]
    fn links_get_rel_and_keep_only_blank_targets() {
        assert_eq!(
            clean("<a href=\"https://example.com\" target=\"_blank\" rel=\"opener\">x</a>"),
            "<a href=\"https://example.com\" target=\"_blank\" rel=\"noopener noreferrer\">x</a>"
        );
        assert_eq!(
            clean("<a href=\"https://example.com\" target=\"_top\">x</a>"),
            "<a href=\"https://example.com\" rel=\"noopener noreferrer\">x</a>"
        );
        assert_eq!(clean("<a href=\"ftp://example.com/f\">x</a>"), "<a rel=\"noopener noreferrer\">x</a>");
    }

    #[test]
    fn both_upload_forms_are_kept_and_other_images_removed() {
        let relative = format!("<img src=\"/uploads/{UPLOAD}\" alt=\"a\">");
        let absolute = format!("<img src=\"{PUBLIC_URL}/uploads/{UPLOAD}\" alt=\"a\">");
        assert_eq!(clean(&relative), relative);
        assert_eq!(clean(&absolute), absolute);
        for other in [
            format!("<img src=\"https://evil.example/uploads/{UPLOAD}\">"),
            format!("<img src=\"http://insights.example.com/uploads/{UPLOAD}\">"),
            format!("<img src=\"//insights.example.com/uploads/{UPLOAD}\">"),
            format!("<img src=\"/uploads/{UPLOAD}?x=1\">"),
            "<img src=\"/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.svg\">".to_owned(),
            "<img src=\"/static/logo.png\">".to_owned(),
        ] {
            assert_eq!(clean(&other), "", "{other}");
        }
    }

    #[test]
    fn the_three_providers_are_kept_and_other_iframes_removed() {
        for src in [
            "https://player.vimeo.com/video/76979871",
            "https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC",
            "https://www.buzzsprout.com/1234/5678?client_source=small_player&amp;iframe=true",
        ] {
            let iframe = format!("<iframe src=\"{src}\" width=\"640\" height=\"360\"></iframe>");
            assert_eq!(clean(&iframe), iframe);
        }
        for src in [
            "https://www.youtube.com/embed/dQw4w9WgXcQ",
            "https://evil.example/video/1",
            "http://player.vimeo.com/video/1",
            "https://player.vimeo.com/other/1",
            "https://open.spotify.com/track/1",
            "https://player.vimeo.com:8443/video/1",
            "//player.vimeo.com/video/1",
            "/video/1",
        ] {
            assert_eq!(clean(&format!("<p>a</p><iframe src=\"{src}\"></iframe>")), "<p>a</p>", "{src}");
        }
    }

    #[test]
    fn iframe_attributes_are_narrowed() {
        assert_eq!(
            clean(
                "<iframe src=\"https://player.vimeo.com/video/1\" allow=\"camera; autoplay; geolocation\" allowfullscreen sandbox=\"allow-scripts\" width=\"640px\" style=\"border: 0\"></iframe>"
            ),
            "<iframe src=\"https://player.vimeo.com/video/1\" allow=\"autoplay\" allowfullscreen=\"\"></iframe>"
        );
    }

    #[test]
    fn editor_blocks_keep_only_well_formed_ids() {
        let promotional = "<div data-promotional-content-id=\"5f9b2c3e1a2b3c4d5e6f7a8b\"></div>";
        let chart = "<div data-chart-id=\"0a1b2c3d-4e5f-6789-abcd-ef0123456789\"></div>";
        assert_eq!(clean(promotional), promotional);
        assert_eq!(clean(chart), chart);
        assert_eq!(clean("<div data-promotional-content-id=\"5F9B2C3E1A2B3C4D5E6F7A8B\"></div>"), "<div></div>");
        assert_eq!(clean("<div data-promotional-content-id=\"123\" data-other=\"x\"></div>"), "<div></div>");
        assert_eq!(clean("<div data-chart-id=\"a b\"></div><div data-chart-id=\"\"></div>"), "<div></div><div></div>");
    }

    #[test]
    fn styles_keep_only_the_editor_properties_with_plain_values() {
        let cases = [
            ("line-height:1.5", "line-height: 1.5;"),
            ("font-size: 14px;", "font-size: 14px;"),
            ("FONT-SIZE: 15.5PX", "font-size: 15.5PX;"),
            ("font-size: 1em; line-height: 2", "line-height: 2;"),
            ("position: fixed; top: 0; color: red", "color: red;"),
            (
                "color: rgba(0, 0, 0, 0.5); background-color: hsl(120 50% 50% / 0.5)",
                "color: rgba(0, 0, 0, 0.5); background-color: hsl(120 50% 50% / 0.5);",
            ),
            (
                "font-weight: 700; font-style: oblique; text-align: justify",
                "font-weight: 700; font-style: oblique; text-align: justify;",
            ),
        ];
        for (style, kept) in cases {
            assert_eq!(
                clean(&format!("<span style=\"{style}\">x</span>")),
                format!("<span style=\"{kept}\">x</span>"),
                "{style}"
            );
        }
        for style in [
            "color: url(x)",
            "color: rgb(1, 2, 3) url(x)",
            "color: #12345",
            "background-color: var(--x)",
            "font-size: calc(1px + 1px)",
            "line-height: 1.5em",
            "text-decoration: underline blink",
            "color: \"red\"",
        ] {
            assert_eq!(clean(&format!("<span style=\"{style}\">x</span>")), "<span>x</span>", "{style}");
        }
    }

    #[test]
    fn classes_keep_only_editor_names() {
        assert_eq!(
            clean("<p class=\"editor-paragraph bp5-dialog editor-text-bold  editor-\">x</p>"),
            "<p class=\"editor-paragraph editor-text-bold\">x</p>"
        );
        assert_eq!(clean("<p class=\"bp5-overlay\" dir=\"sideways\">x</p>"), "<p>x</p>");
    }
}
