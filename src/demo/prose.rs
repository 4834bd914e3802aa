//! Research prose for the demo articles, generated from the phrase banks in `subjects` with a
//! seeded random generator: one set of facts per article (the price and its move, a driver, the
//! forecast), told consistently by the title, the summary and a body of 3–8 paragraphs with
//! headings, a list or a chart now and then.

use chrono::{DateTime, Datelike, Months, Utc};
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};
use rand::{Rng, rngs::StdRng, seq::SliceRandom};

use super::subjects::{BEARISH_STANCES, BULLISH_STANCES, ELABORATIONS, Subject, Theme, bank};
use crate::articles::service::SUMMARY_MAX;

/// Kinds of article, each with its own headline and shape.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Move,
    Weekly,
    Outlook,
    Why,
    Balance,
    Chartbook,
    QuickTake,
    Watch,
    TradeIdea,
}

const KINDS: &[(Kind, u32)] = &[
    (Kind::Move, 6),
    (Kind::Weekly, 5),
    (Kind::Outlook, 2),
    (Kind::Why, 2),
    (Kind::Balance, 2),
    (Kind::Chartbook, 2),
    (Kind::QuickTake, 3),
    (Kind::Watch, 2),
    (Kind::TradeIdea, 1),
];

pub fn pick_kind(rng: &mut StdRng) -> Kind {
    KINDS.choose_weighted(rng, |(_, weight)| *weight).map(|(kind, _)| *kind).unwrap_or(Kind::Move)
}

/// Upload names of the chart images an article body may show.
pub struct Charts<'a> {
    pub line: &'a str,
    pub bars: &'a str,
}

pub struct Written {
    pub title: String,
    pub summary: String,
    pub html: String,
    /// The body shows a chart (such articles go to the channel's chart section).
    pub has_chart: bool,
    /// Tags the kind of article calls for ("Quick Take", "Chartbook", ...).
    pub tags: Vec<&'static str>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Forecast {
    Keep,
    Raise,
    Lower,
}

/// What one article says, decided once.
struct Facts<'s> {
    s: &'s Subject,
    up: bool,
    /// Size of the weekly move: percent, or basis points for yields.
    change: f64,
    price: f64,
    driver: &'static str,
    counter: &'static str,
    risks: Vec<&'static str>,
    /// A risk on the theme's watch list.
    watch: &'static str,
    event: &'static str,
    elaboration: &'static str,
    forecast: Forecast,
    target: f64,
    average: f64,
    quarter: String,
    year: i32,
    since: String,
    /// The month of publication, and the ones around it.
    month: String,
    next_month: String,
    last_month: String,
    /// Our balance now and as we saw it last month (if the market has a balance).
    balance_now: f64,
    balance_before: f64,
    /// Stocks fell (if the market has a stock series).
    stocks_fell: bool,
    /// A deficit rather than a surplus (if the market has a balance).
    deficit: bool,
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A number with thousands separators: 9140 → "9,140".
pub fn number(value: f64, decimals: usize) -> String {
    let formatted = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = formatted.split_once('.').map_or((formatted.as_str(), None), |(w, f)| (w, Some(f)));
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if value < 0.0 && formatted.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
    match fraction {
        Some(fraction) => format!("{sign}{grouped}.{fraction}"),
        None => format!("{sign}{grouped}"),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The summary limit, cut at a word with an ellipsis when a sentence runs long.
fn fit_summary(summary: String) -> String {
    if summary.chars().count() <= SUMMARY_MAX {
        return summary;
    }
    let cut: String = summary.chars().take(SUMMARY_MAX - 1).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head).trim_end_matches([',', ';', ':']);
    format!("{cut}…")
}

fn p(sentence: &str) -> String {
    format!("<p>{}</p>", text(sentence))
}

fn h2(heading: &str) -> String {
    format!("<h2>{}</h2>", text(heading))
}

impl Facts<'_> {
    fn price_text(&self, value: f64) -> String {
        format!("{}{}{}", self.s.prefix, number(value, self.s.decimals), self.s.suffix)
    }

    fn change_text(&self) -> String {
        if self.s.in_bp { format!("{:.0} bp", self.change) } else { format!("{:.1}%", self.change) }
    }

    fn rose(&self) -> &'static str {
        if self.up { "rose" } else { "fell" }
    }

    fn forecast_clause(&self) -> String {
        let target = self.price_text(self.target);
        match self.forecast {
            Forecast::Keep => format!("keep our {} forecast at {target}", self.quarter),
            Forecast::Raise => format!("raise our {} forecast to {target}", self.quarter),
            Forecast::Lower => format!("lower our {} forecast to {target}", self.quarter),
        }
    }

    /// "180 kt": a balance figure with its unit.
    fn balance_text(&self, value: f64) -> Option<String> {
        let (unit, size) = self.s.balance?;
        Some(format!("{} {unit}", number(value, if size < 20.0 { 1 } else { 0 })))
    }

    fn bullish(&self) -> bool {
        match self.forecast {
            Forecast::Raise => true,
            Forecast::Lower => false,
            Forecast::Keep => self.up,
        }
    }
}

fn facts<'s>(rng: &mut StdRng, s: &'s Subject, date: DateTime<Utc>) -> Facts<'s> {
    let bank = bank(s.theme);
    // A smooth path through the two years, different per market, so neighbouring articles quote
    // neighbouring prices.
    let phase = s.key.bytes().map(f64::from).sum::<f64>() / 17.0;
    let days = date.timestamp() as f64 / 86_400.0;
    // Calm markets (currencies) wander less than volatile ones.
    let scale = if s.in_bp { 1.0 } else { (s.volatility / 2.5).clamp(0.2, 1.0) };
    let wave = |d: f64| scale * (0.10 * (d / 97.0 + phase).sin() + 0.04 * (d / 23.0 + 2.0 * phase).sin());
    let price = s.base * (1.0 + wave(days) + rng.gen_range(-0.01..0.01));
    let trend_up = wave(days) > wave(days - 7.0);
    let up = if rng.gen_bool(0.8) { trend_up } else { !trend_up };
    let change = s.volatility * rng.gen_range(0.25..1.4);
    let (drivers, counters) = if up { (bank.up, bank.down) } else { (bank.down, bank.up) };
    // The risks to a view are what would push the other way.
    let mut risks: Vec<&'static str> = counters.to_vec();
    risks.shuffle(rng);
    risks.truncate(3);
    let watch = bank.risks.choose(rng).copied().unwrap_or("the data");
    let forecast = {
        let roll = rng.gen_range(0..100);
        match (up, roll) {
            (true, 0..45) | (false, 85..) => Forecast::Raise,
            (false, 0..45) | (true, 85..) => Forecast::Lower,
            _ => Forecast::Keep,
        }
    };
    let target = match forecast {
        Forecast::Raise => price * (1.0 + rng.gen_range(0.02..0.08)),
        Forecast::Lower => price * (1.0 - rng.gen_range(0.02..0.08)),
        Forecast::Keep => price * (1.0 + rng.gen_range(-0.04..0.04)),
    };
    let quarter_now = date.month0() / 3 + 1;
    let (quarter, quarter_year) = if quarter_now == 4 { (1, date.year() + 1) } else { (quarter_now + 1, date.year()) };
    let months_back = rng.gen_range(3..=18);
    let balance_now = s.balance.map_or(0.0, |(_, size)| size * rng.gen_range(0.3..1.6));
    Facts {
        s,
        up,
        change,
        price,
        driver: drivers.choose(rng).copied().unwrap_or("positioning"),
        counter: counters.choose(rng).copied().unwrap_or("positioning"),
        risks,
        watch,
        event: bank.events.choose(rng).copied().unwrap_or("the next data release"),
        elaboration: ELABORATIONS.choose(rng).copied().unwrap_or_default(),
        forecast,
        average: target * (1.0 + rng.gen_range(-0.04..0.04)),
        target,
        quarter: format!("Q{quarter} {quarter_year}"),
        year: if date.month() >= 10 { date.year() + 1 } else { date.year() },
        since: (date - Months::new(months_back)).format("%B %Y").to_string(),
        month: date.format("%B").to_string(),
        next_month: (date + Months::new(1)).format("%B").to_string(),
        last_month: (date - Months::new(1)).format("%B").to_string(),
        stocks_fell: if rng.gen_bool(0.75) { up } else { !up },
        deficit: if rng.gen_bool(0.8) { up } else { !up },
        balance_now,
        balance_before: balance_now * rng.gen_range(0.6..1.4),
    }
}

fn opening(rng: &mut StdRng, f: &Facts) -> String {
    let (market, price, change) = (f.s.market, f.price_text(f.price), f.change_text());
    match rng.gen_range(0..3) {
        0 => {
            let extreme = if f.up { "highest" } else { "lowest" };
            format!(
                "{market} {} {change} over the past week to {price}, its {extreme} close since {}. The move reflects {}.",
                f.rose(),
                f.since,
                f.driver
            )
        }
        1 => {
            let verb = if f.up { "gained" } else { "lost" };
            format!(
                "{market} {verb} {change} this week to settle at {price}. {} did most of the work, and we expect it to stay in focus until {}.",
                capitalise(f.driver),
                f.event
            )
        }
        _ => {
            let direction = if f.up { "up" } else { "down" };
            format!("{market} ended the week at {price}, {direction} {change}, with {} setting the tone. {}", f.driver, f.elaboration)
        }
    }
}

fn stocks_paragraph(rng: &mut StdRng, f: &Facts) -> Option<(String, String)> {
    let stocks = f.s.stocks.as_ref()?;
    let quantity = stocks.level * (1.0 + rng.gen_range(-0.25..0.25));
    let decimals = if stocks.level < 100.0 { 1 } else { 0 };
    let pct = rng.gen_range(0.5..6.0);
    let weeks = rng.gen_range(6..40);
    let (verb, extreme, side, short_extreme) =
        if f.stocks_fell { ("fell", "lowest", "below", "low") } else { ("rose", "highest", "above", "high") };
    let comparison = match rng.gen_range(0..3) {
        0 => format!("the {extreme} since {}", f.since),
        1 => format!("{:.0}% {side} the five-year average", rng.gen_range(4.0..22.0)),
        _ => format!("a {weeks}-week {short_extreme}"),
    };
    let implication = match (f.stocks_fell, rng.gen_bool(0.5)) {
        (true, true) => "Tighter prompt availability is starting to show in physical premiums.",
        (true, false) => "That leaves less of a buffer should demand surprise on the upside.",
        (false, true) => "The build eases concerns about nearby availability, at least for now.",
        (false, false) => "Stocks are now comfortable enough to cap rallies in the near term.",
    };
    let paragraph = format!(
        "{} {verb} {pct:.1}% over the week to {} {}, {comparison}. {implication}",
        stocks.label,
        number(quantity, decimals),
        stocks.unit
    );
    Some((paragraph, format!("{} at a {weeks}-week {short_extreme}", stocks.short)))
}

fn balance_paragraph(f: &Facts) -> Option<String> {
    f.s.balance?;
    let kind = if f.deficit { "deficit" } else { "surplus" };
    let wider = if f.balance_before < f.balance_now { "wider" } else { "narrower" };
    Some(format!(
        "Our balance model now points to a {kind} of {} in {}, {wider} than the {} we expected in {}. The revision mostly reflects {}.",
        f.balance_text(f.balance_now).unwrap_or_default(),
        f.year,
        f.balance_text(f.balance_before).unwrap_or_default(),
        f.last_month,
        f.driver
    ))
}

fn data_paragraph(rng: &mut StdRng, f: &Facts) -> Option<(String, String)> {
    let data = f.s.data.as_ref()?;
    let value = data.level * (1.0 + rng.gen_range(-0.08..0.08));
    let consensus = value + data.level * rng.gen_range(-0.025..0.025);
    let (relation, short) = if (value - consensus).abs() < data.level * 0.004 {
        ("in line with", "in line with consensus")
    } else if value > consensus {
        ("above", "above consensus")
    } else {
        ("below", "below consensus")
    };
    let comment = match rng.gen_range(0..3) {
        0 => format!("It does little to change our base case, but it narrows the path ahead of {}.", f.event),
        1 => "Markets took it in their stride; we think they should not have.".to_owned(),
        _ => format!("It is the {} release in a row to surprise in that direction.", ["second", "third"][rng.gen_range(0..2)]),
    };
    let paragraph = format!(
        "{} came in at {}{} in {}, {relation} the consensus of {}{}. {comment}",
        data.name,
        number(value, data.decimals),
        data.unit,
        f.last_month,
        number(consensus, data.decimals),
        data.unit
    );
    Some((paragraph, format!("{} {short}", data.name)))
}

fn driver_paragraph(rng: &mut StdRng, f: &Facts) -> String {
    if rng.gen_bool(0.5) {
        format!("The swing factor for {} is still {}. {}", f.s.lower, f.driver, f.elaboration)
    } else {
        format!(
            "Beyond the headline move, we are watching {}, which pulls the other way; {}",
            f.counter,
            [
                "we think its effect is smaller than the market fears.",
                "we would not dismiss it if it persists into next month.",
                "it is the main reason we are not more aggressive."
            ][rng.gen_range(0..3)]
        )
    }
}

fn positioning_paragraph(rng: &mut StdRng, f: &Facts) -> String {
    let percentile: u32 = rng.gen_range(5..97);
    let contracts = (rng.gen_range(8_000.0..250_000.0_f64) / 100.0).round() * 100.0;
    let (side, add) = if f.up { ("long", "length") } else { ("short", "shorts") };
    let (label, busy, consequence) = if percentile >= 80 {
        ("stretched", "busy", format!("That leaves the market exposed to a pullback should {} gather pace.", f.counter))
    } else if percentile <= 25 {
        ("light", "quiet", format!("That leaves room to add {add} should {} stay in play.", f.driver))
    } else {
        ("close to neutral", "steady", "Positioning is therefore unlikely to drive the next move on its own.".to_owned())
    };
    if f.s.theme == Theme::Freight {
        return format!(
            "Paper trading is {busy}: open interest in {} forward freight agreements stands at {} lots, the {} percentile of the past five years. {consequence}",
            f.s.lower,
            number(contracts / 10.0, 0),
            ordinal(percentile)
        );
    }
    format!(
        "Speculative positioning in {} is {label}: net {side} positions stand at {} contracts, the {} percentile of the past five years. {consequence}",
        f.s.lower,
        number(contracts, 0),
        ordinal(percentile)
    )
}

fn curve_paragraph(rng: &mut StdRng, f: &Facts) -> String {
    match f.s.theme {
        Theme::Yields => {
            let (verb, end) = if f.up { ("steepened", "the long end") } else { ("flattened", "the front end") };
            format!(
                "The 2s10s curve {verb} by {} bp to {} bp over the week, with {end} doing most of the work.",
                rng.gen_range(3..15),
                rng.gen_range(-40..60)
            )
        }
        Theme::EuroFx | Theme::ChinaFx | Theme::Equity => {
            let level: f64 = rng.gen_range(5.0..18.0);
            let average = level * rng.gen_range(0.8..1.2);
            let (verb, side) = if level > average { ("rose", "above") } else { ("fell", "below") };
            format!("One-month implied volatility {verb} to {level:.1}%, {side} its one-year average of {average:.1}%.")
        }
        Theme::Freight => {
            let gap: f64 = rng.gen_range(2.0..15.0);
            let (side, meaning) = if f.up { ("premium", "expects the strength to last") } else { ("discount", "is pricing a correction") };
            let forward = if f.up { f.price * (1.0 + gap / 100.0) } else { f.price * (1.0 - gap / 100.0) };
            format!(
                "Forward freight agreements for next quarter trade at {}, a {side} of {gap:.0}% to spot, so the market {meaning}.",
                f.price_text(forward)
            )
        }
        _ => {
            let spread = f.price * rng.gen_range(0.002..0.02);
            let (shape, meaning) =
                if f.up { ("deeper into backwardation", "nearby supply is tight") } else { ("into contango", "nearby supply is ample") };
            format!("The prompt spread moved {shape}, at {}, a sign that {meaning}.", f.price_text(spread))
        }
    }
}

fn view_paragraph(f: &Facts, trade: bool) -> String {
    let mut view = format!(
        "We {} and see the {} average at {}. Risks to our view are {}.",
        f.forecast_clause(),
        f.year,
        f.price_text(f.average),
        join_and(&f.risks)
    );
    if trade {
        let (entry, stop) = if f.bullish() { (f.price * 0.98, f.price * 0.94) } else { (f.price * 1.02, f.price * 1.06) };
        let action = if f.bullish() { "buy dips below" } else { "sell rallies above" };
        view.push_str(&format!(" Our preferred expression is to {action} {}, with a stop at {}.", f.price_text(entry), f.price_text(stop)));
    }
    view
}

fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

fn figure(file: &str, alt: &str, caption: &str) -> String {
    format!(r#"<figure><img src="/uploads/{}" alt="{}"><figcaption>{}</figcaption></figure>"#, attr(file), attr(alt), text(caption))
}

fn line_figure(f: &Facts, charts: &Charts) -> String {
    let alt = format!("{} ({}), last twelve months", f.s.market, f.s.unit);
    figure(charts.line, &alt, &format!("{alt}. Source: exchange data, Insights Research."))
}

fn bars_figure(f: &Facts, charts: &Charts) -> String {
    let caption = match (&f.s.stocks, f.s.balance) {
        (Some(stocks), _) => format!("{} by month, {}", stocks.label, stocks.unit),
        (None, Some((unit, _))) => format!("Our {} balance by quarter, {unit}", f.s.lower),
        (None, None) => format!("{}: weekly change, last twelve weeks", f.s.market),
    };
    figure(charts.bars, &caption, &format!("{caption}. Source: Insights Research."))
}

/// Writes one article about `s` as of `date`.
pub fn write(rng: &mut StdRng, s: &Subject, kind: Kind, date: DateTime<Utc>, charts: &Charts) -> Written {
    let f = facts(rng, s, date);
    let mut tags: Vec<&'static str> = Vec::new();
    let mut body: Vec<String> = vec![p(&opening(rng, &f))];
    let stocks = stocks_paragraph(rng, &f);
    let data = data_paragraph(rng, &f);
    let balance = balance_paragraph(&f);
    let fundamentals_heading = if data.is_some() && stocks.is_none() { "The data" } else { "Supply and demand" };
    let mut has_chart = false;

    let paragraphs: usize = match kind {
        Kind::QuickTake => 3,
        Kind::Outlook => rng.gen_range(6..=8),
        Kind::Watch | Kind::TradeIdea => rng.gen_range(4..=5),
        _ => rng.gen_range(3..=8),
    };
    let trade = matches!(kind, Kind::TradeIdea | Kind::Why);

    match kind {
        Kind::Chartbook => {
            tags.push("Chartbook");
            has_chart = true;
            body.push(line_figure(&f, charts));
            if let Some((paragraph, _)) = stocks.as_ref().or(data.as_ref()) {
                body.push(p(paragraph));
            } else if let Some(paragraph) = &balance {
                body.push(p(paragraph));
            }
            body.push(bars_figure(&f, charts));
            body.push(h2("Positioning"));
            body.push(p(&positioning_paragraph(rng, &f)));
            body.push(h2("Our view"));
            body.push(p(&view_paragraph(&f, false)));
        }
        Kind::Watch => {
            let mut items: Vec<String> = vec![
                capitalise(f.event),
                format!("The staying power of {}", f.driver),
                format!("Risk: {}", f.watch),
                capitalise(f.counter),
            ];
            items.extend(f.risks.iter().filter(|r| **r != f.counter).map(|r| capitalise(r)));
            items.truncate(rng.gen_range(3..=5));
            body.push(h2("What we are watching"));
            body.push(format!("<ol>{}</ol>", items.iter().map(|i| format!("<li>{}</li>", text(i))).collect::<String>()));
            body.push(p(&driver_paragraph(rng, &f)));
            if let Some((paragraph, _)) = stocks.as_ref().or(data.as_ref()) {
                body.push(p(paragraph));
            }
            body.push(h2("Our view"));
            body.push(p(&view_paragraph(&f, false)));
        }
        _ => {
            if kind == Kind::QuickTake {
                tags.push("Quick Take");
            }
            if kind == Kind::TradeIdea {
                tags.push("Trade Idea");
            }
            // Key takeaways on longer notes.
            if paragraphs >= 5 && rng.gen_bool(0.5) {
                let direction = if f.up { "up" } else { "down" };
                let mut items = vec![format!("{} {direction} {} on the week at {}", f.s.market, f.change_text(), f.price_text(f.price))];
                if let Some((_, short)) = stocks.as_ref().or(data.as_ref()) {
                    items.push(short.clone());
                }
                let forecast = match f.forecast {
                    Forecast::Keep => "kept at",
                    Forecast::Raise => "raised to",
                    Forecast::Lower => "lowered to",
                };
                items.push(format!("{} forecast {forecast} {}", f.quarter, f.price_text(f.target)));
                items.push(format!("Watch: {}", f.event));
                body.push(h2("Key takeaways"));
                body.push(format!("<ul>{}</ul>", items.iter().map(|i| format!("<li>{}</li>", text(i))).collect::<String>()));
            }
            // The optional paragraphs between the opening and the view, in reading order.
            let mut optional: Vec<&str> = Vec::new();
            if stocks.is_some() {
                optional.push("stocks");
            }
            if data.is_some() {
                optional.push("data");
            }
            if balance.is_some() {
                optional.push("balance");
            }
            optional.extend(["driver", "positioning", "curve"]);
            let wanted = paragraphs.saturating_sub(2).min(optional.len());
            let mut chosen: Vec<&str> = optional.choose_multiple(rng, wanted).copied().collect();
            if kind == Kind::Balance && balance.is_some() && !chosen.contains(&"balance") {
                chosen.pop();
                chosen.push("balance");
            }
            let mut fundamentals_open = false;
            for part in optional.iter().filter(|part| chosen.contains(part)) {
                match *part {
                    "stocks" | "data" | "balance" => {
                        if !fundamentals_open && paragraphs >= 5 {
                            body.push(h2(fundamentals_heading));
                            fundamentals_open = true;
                        }
                        let paragraph = match *part {
                            "stocks" => stocks.as_ref().map(|(p, _)| p.clone()),
                            "data" => data.as_ref().map(|(p, _)| p.clone()),
                            _ => balance.clone(),
                        };
                        body.extend(paragraph.map(|paragraph| p(&paragraph)));
                    }
                    "driver" => body.push(p(&driver_paragraph(rng, &f))),
                    "positioning" => {
                        if paragraphs >= 6 {
                            body.push(h2("Positioning"));
                        }
                        body.push(p(&positioning_paragraph(rng, &f)));
                    }
                    _ => body.push(p(&curve_paragraph(rng, &f))),
                }
                if !has_chart && paragraphs >= 4 && rng.gen_bool(0.06) {
                    has_chart = true;
                    body.push(line_figure(&f, charts));
                }
            }
            if paragraphs >= 4 {
                body.push(h2("Our view"));
            }
            body.push(p(&view_paragraph(&f, trade)));
            if paragraphs >= 7 {
                tags.push("Deep Dive");
            }
        }
    }
    if kind != Kind::QuickTake && body.iter().any(|b| b.contains("Speculative positioning")) {
        tags.push("Positioning");
    }

    let title = headline(rng, &f, kind);
    let summary = fit_summary(summary(&f, kind));
    Written { title, summary, html: body.join("\n"), has_chart, tags }
}

fn headline(rng: &mut StdRng, f: &Facts, kind: Kind) -> String {
    let (name, lower) = (f.s.name, f.s.lower);
    match kind {
        Kind::Move => {
            let verb = if f.up { "rises" } else { "falls" };
            format!("{name} {verb} {} on {}", f.change_text(), f.driver)
        }
        Kind::Weekly => match &f.s.stocks {
            Some(stocks) => {
                let extreme = if f.stocks_fell { "low" } else { "high" };
                format!("{name} weekly: {} at a {}-week {extreme}", stocks.short, rng.gen_range(6..40))
            }
            None => format!("{name} weekly: {} in focus", f.driver),
        },
        Kind::Outlook => {
            let stances = if f.bullish() { BULLISH_STANCES } else { BEARISH_STANCES };
            format!("{name} outlook {}: {}", f.quarter, stances.choose(rng).copied().unwrap_or("our view"))
        }
        Kind::Why if f.s.in_bp => {
            let side = if f.bullish() { "higher" } else { "lower" };
            format!("Why we still expect {side} yields despite {}", f.counter)
        }
        Kind::Why => {
            let side = if f.bullish() { "bullish" } else { "bearish" };
            format!("Why we stay {side} on {lower} despite {}", f.counter)
        }
        Kind::Balance => match f.balance_text(f.balance_now) {
            Some(balance) => {
                let kind = if f.deficit { "deficit" } else { "surplus" };
                format!("{name} balance update: a {kind} of {balance} in {}", f.year)
            }
            None => format!("{name}: what the latest data say about {}", f.driver),
        },
        Kind::Chartbook => {
            let count = ["six", "eight", "ten"][rng.gen_range(0..3)];
            format!("Chartbook: {lower} in {count} charts, {} edition", f.month)
        }
        Kind::QuickTake => format!("Quick take: {} and what it means for {lower}", f.event),
        Kind::Watch => {
            let count = ["Three", "Four", "Five"][rng.gen_range(0..3)];
            format!("{name}: {} things to watch in {}", count.to_lowercase(), f.next_month)
        }
        Kind::TradeIdea if f.s.in_bp => {
            let side = if f.bullish() { "higher" } else { "lower" };
            format!("Trade idea: position for {side} yields into {}", f.next_month)
        }
        Kind::TradeIdea => {
            let action = if f.bullish() { "buy dips in" } else { "sell rallies in" };
            format!("Trade idea: {action} {lower} into {}", f.next_month)
        }
    }
}

fn summary(f: &Facts, kind: Kind) -> String {
    match kind {
        Kind::QuickTake => {
            format!("Our first read of {}, and why we think the market underrates the role of {} in {}.", f.event, f.driver, f.s.lower)
        }
        Kind::Chartbook => format!(
            "The charts that matter for {} now: prices, {}, positioning and our {} forecast of {}.",
            f.s.lower,
            if f.s.stocks.is_some() { "stocks" } else { "the data" },
            f.quarter,
            f.price_text(f.target)
        ),
        Kind::Watch => format!("What will decide where {} goes in {}, from {} to {}.", f.s.lower, f.next_month, f.event, f.watch),
        Kind::Balance if f.s.balance.is_some() => format!(
            "We now see a {} in {} as {} reshapes the balance, and we {}.",
            if f.deficit { "deficit" } else { "surplus" },
            f.year,
            f.driver,
            f.forecast_clause()
        ),
        _ => format!(
            "{} {} {} to {} on {}. We {}.",
            f.s.market,
            f.rose(),
            f.change_text(),
            f.price_text(f.price),
            f.driver,
            f.forecast_clause()
        ),
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use rand::SeedableRng;

    use super::*;
    use crate::demo::subjects::SUBJECTS;

    #[test]
    fn numbers_get_thousands_separators() {
        assert_eq!(number(9140.4, 0), "9,140");
        assert_eq!(number(1_234_567.891, 2), "1,234,567.89");
        assert_eq!(number(1.0851, 4), "1.0851");
        assert_eq!(number(-2500.0, 0), "-2,500");
        assert_eq!(number(612.0, 0), "612");
    }

    #[test]
    fn ordinals_read_right() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 93].into_iter().map(ordinal).collect();
        assert_eq!(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "93rd"]);
    }

    #[test]
    fn every_subject_and_kind_writes_a_publishable_article() {
        let charts = Charts { line: "5f9b2c3e1a2b3c4d5e6f7a8b.png", bars: "5f9b2c3e1a2b3c4d5e6f7a8c.png" };
        let date = Utc.with_ymd_and_hms(2025, 11, 14, 9, 30, 0).unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        for subject in SUBJECTS {
            for (kind, _) in KINDS {
                for _ in 0..4 {
                    let article = write(&mut rng, subject, *kind, date, &charts);
                    assert!(!article.title.is_empty() && !article.title.contains('\n'), "{}", article.title);
                    assert!(article.summary.chars().count() <= SUMMARY_MAX, "{}", article.summary);
                    let paragraphs = article.html.matches("<p>").count();
                    assert!((3..=8).contains(&paragraphs), "{kind:?} {}: {paragraphs} paragraphs\n{}", subject.key, article.html);
                    assert_eq!(article.has_chart, article.html.contains("<img"), "{}", article.html);
                }
            }
        }
    }

    #[test]
    fn the_same_seed_writes_the_same_article() {
        let charts = Charts { line: "a.png", bars: "b.png" };
        let date = Utc.with_ymd_and_hms(2025, 3, 3, 8, 0, 0).unwrap();
        let one = write(&mut StdRng::seed_from_u64(1), &SUBJECTS[0], Kind::Outlook, date, &charts);
        let two = write(&mut StdRng::seed_from_u64(1), &SUBJECTS[0], Kind::Outlook, date, &charts);
        assert_eq!((one.title, one.html), (two.title, two.html));
    }

    #[test]
    fn long_summaries_are_cut_at_a_word() {
        let long = "word ".repeat(80);
        let cut = fit_summary(long);
        assert!(cut.chars().count() <= SUMMARY_MAX && cut.ends_with("word…"), "{cut}");
    }
}
