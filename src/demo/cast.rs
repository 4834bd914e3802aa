//! The demo's fixed cast: staff (the built-in sign-in page's ready users among them), desks,
//! channels and readers. Plain data; `mod.rs` turns it into rows through the services.

use crate::{
    auth::{provider::READY_USERS, scopes},
    channels::ChannelType,
};

/// The company of every staff member (the ready staff users' company on the sign-in page).
pub const STAFF_COMPANY: &str = "Insights Research";

pub struct Staff {
    pub email: &'static str,
    pub name: &'static str,
    pub position: &'static str,
    pub phone: &'static str,
    pub scopes: &'static [&'static str],
}

/// The ready staff users of the sign-in page come first, with the scopes the page gives them, so
/// that signing in as them finds these rows.
pub fn staff() -> Vec<Staff> {
    let ready = |key: &str| READY_USERS.iter().find(|u| u.key == key).expect("a ready user of the sign-in page");
    let (admin, editor, contributor) = (ready("admin"), ready("editor"), ready("contributor"));
    let mut staff = vec![
        Staff {
            email: admin.email,
            name: admin.name,
            position: "Head of Research Operations",
            phone: "+44 20 7946 0100",
            scopes: admin.scopes,
        },
        Staff {
            email: editor.email,
            name: editor.name,
            position: "Head of Energy Research",
            phone: "+44 20 7946 0101",
            scopes: editor.scopes,
        },
        Staff {
            email: contributor.email,
            name: contributor.name,
            position: "Crude Oil Analyst",
            phone: "+44 20 7946 0102",
            scopes: contributor.scopes,
        },
    ];
    const EDITOR: &[&str] = &[scopes::EDITOR];
    const CONTRIBUTOR: &[&str] = &[scopes::CONTRIBUTOR];
    #[rustfmt::skip]
    staff.extend([
        Staff { email: "priya.raman@insights.example", name: "Priya Raman", position: "Gas & LNG Analyst", phone: "+44 20 7946 0114", scopes: CONTRIBUTOR },
        Staff { email: "daniel.okafor@insights.example", name: "Daniel Okafor", position: "Head of Metals Research", phone: "+44 20 7946 0120", scopes: EDITOR },
        Staff { email: "sofia.lindqvist@insights.example", name: "Sofia Lindqvist", position: "Base Metals Strategist", phone: "+44 20 7946 0121", scopes: CONTRIBUTOR },
        Staff { email: "wei.zhang@insights.example", name: "Wei Zhang", position: "Battery Metals Analyst", phone: "+65 6812 4410", scopes: CONTRIBUTOR },
        Staff { email: "marta.alvarez@insights.example", name: "Marta Alvarez", position: "Head of Agricultural Research", phone: "+1 312 555 0140", scopes: EDITOR },
        Staff { email: "tom.becker@insights.example", name: "Tom Becker", position: "Grains Analyst", phone: "+1 312 555 0141", scopes: CONTRIBUTOR },
        Staff { email: "aiko.tanaka@insights.example", name: "Aiko Tanaka", position: "Softs Analyst", phone: "+44 20 7946 0142", scopes: CONTRIBUTOR },
        Staff { email: "henrik.nielsen@insights.example", name: "Henrik Nielsen", position: "Head of Freight Research", phone: "+45 3369 0150", scopes: EDITOR },
        Staff { email: "grace.adeyemi@insights.example", name: "Grace Adeyemi", position: "Tanker Market Analyst", phone: "+44 20 7946 0151", scopes: CONTRIBUTOR },
        Staff { email: "jonathan.reid@insights.example", name: "Jonathan Reid", position: "Chief Economist", phone: "+44 20 7946 0160", scopes: EDITOR },
        Staff { email: "lena.fischer@insights.example", name: "Lena Fischer", position: "Rates & FX Strategist", phone: "+49 69 5050 0161", scopes: CONTRIBUTOR },
    ]);
    staff
}

pub struct Desk {
    pub name: &'static str,
    pub email: &'static str,
    pub description: &'static str,
    /// Staff emails; the first Editor among them authors the desk's articles.
    pub members: &'static [&'static str],
}

#[rustfmt::skip]
pub const DESKS: &[Desk] = &[
    Desk { name: "Energy", email: "energy@insights.example",
           description: "Crude oil, refined products, natural gas, LNG and carbon: balances, price forecasts and the policy that moves them.",
           members: &["erin.editor@insights.example", "chris.contributor@insights.example", "priya.raman@insights.example"] },
    Desk { name: "Metals & Mining", email: "metals@insights.example",
           description: "Base, precious and battery metals: mine supply, smelting, Chinese demand and exchange inventories.",
           members: &["daniel.okafor@insights.example", "sofia.lindqvist@insights.example", "wei.zhang@insights.example"] },
    Desk { name: "Agriculture", email: "agriculture@insights.example",
           description: "Grains, oilseeds, softs and livestock: crop conditions, trade flows and weather risk.",
           members: &["marta.alvarez@insights.example", "tom.becker@insights.example", "aiko.tanaka@insights.example"] },
    Desk { name: "Shipping", email: "shipping@insights.example",
           description: "Dry bulk, tanker and container freight: rates, fleet supply, chokepoints and tonne-miles.",
           members: &["henrik.nielsen@insights.example", "grace.adeyemi@insights.example"] },
    Desk { name: "Macro", email: "macro@insights.example",
           description: "Economics, central banks, rates and currencies, and what they mean for commodity markets.",
           members: &["jonathan.reid@insights.example", "lena.fischer@insights.example", "erin.editor@insights.example"] },
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Owner {
    Desk(&'static str),
    /// A staff member with an editing scope, by email.
    Contributor(&'static str),
}

/// One of the demo images (see `images`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Image {
    ChartLine,
    ChartBars,
    CoverWaves,
    CoverLines,
    BadgeBlue,
    BadgeAmber,
}

pub struct Channel {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: ChannelType,
    pub owner: Owner,
    /// Staff emails besides the creator (the demo's Administrator).
    pub admins: &'static [&'static str],
    /// Staff emails that author (publish) the channel's articles: Editors who may publish to it.
    pub authors: &'static [&'static str],
    /// Staff emails credited beside the author.
    pub writers: &'static [&'static str],
    pub price: Option<&'static str>,
    pub gl_account: Option<&'static str>,
    pub trial_days: Option<i32>,
    pub profile: Image,
    pub cover: Image,
    /// Keys of `subjects::SUBJECTS` its articles are about.
    pub subjects: &'static [&'static str],
    /// Topic paths every article of the channel may carry besides its subject's.
    pub topics: &'static [&'static str],
    pub articles: usize,
}

#[rustfmt::skip]
pub const CHANNELS: &[Channel] = &[
    Channel { name: "Oil & Gas Premium", kind: ChannelType::Premium, owner: Owner::Desk("Energy"),
              description: "Daily crude, products and gas analysis with price forecasts and balance models from the Energy desk.",
              admins: &["erin.editor@insights.example"], authors: &["erin.editor@insights.example"],
              writers: &["chris.contributor@insights.example", "priya.raman@insights.example"],
              price: Some("450.00"), gl_account: Some("GL-4410-ENERGY"), trial_days: Some(14),
              profile: Image::BadgeBlue, cover: Image::CoverWaves,
              subjects: &["brent", "wti", "diesel", "henry-hub", "ttf", "lng"],
              topics: &["Commodities", "Commodities > Energy", "Equities > Global > Energy"], articles: 60 },
    Channel { name: "Metals Pro", kind: ChannelType::Premium, owner: Owner::Desk("Metals & Mining"),
              description: "Base, precious and battery metals: balances, exchange stocks, Chinese demand and our price forecasts.",
              admins: &["daniel.okafor@insights.example"], authors: &["daniel.okafor@insights.example"],
              writers: &["sofia.lindqvist@insights.example", "wei.zhang@insights.example"],
              price: Some("380.00"), gl_account: Some("GL-4420-METALS"), trial_days: Some(10),
              profile: Image::BadgeAmber, cover: Image::CoverLines,
              subjects: &["copper", "aluminium", "nickel", "zinc", "gold", "silver"],
              topics: &["Commodities", "Commodities > Metals", "Equities > Global > Materials"], articles: 55 },
    Channel { name: "Freight & Tanker Tracker", kind: ChannelType::Premium, owner: Owner::Desk("Shipping"),
              description: "Dry bulk, tanker and container rates with fleet, chokepoint and tonne-mile analysis.",
              admins: &["henrik.nielsen@insights.example"], authors: &["henrik.nielsen@insights.example"],
              writers: &["grace.adeyemi@insights.example"],
              price: Some("295.00"), gl_account: Some("GL-4440-SHIP"), trial_days: Some(7),
              profile: Image::BadgeBlue, cover: Image::CoverLines,
              subjects: &["capesize", "vlcc", "dry-bulk", "containers"],
              topics: &["Equities > Global > Industrials", "Macro & Strategy > Geopolitics > Trade Policy"], articles: 35 },
    Channel { name: "Market Pulse", kind: ChannelType::FreeOpen, owner: Owner::Desk("Macro"),
              description: "Free daily notes on the macro picture and the commodity moves that matter, open to every reader.",
              admins: &["jonathan.reid@insights.example", "erin.editor@insights.example"],
              authors: &["jonathan.reid@insights.example", "erin.editor@insights.example"],
              writers: &["lena.fischer@insights.example"],
              price: None, gl_account: None, trial_days: None,
              profile: Image::BadgeAmber, cover: Image::CoverWaves,
              subjects: &["ust10", "eurusd", "sp500", "brent", "gold", "copper"],
              topics: &["Macro & Strategy", "Macro & Strategy > Economics", "Multi-Asset"], articles: 60 },
    Channel { name: "Grains & Softs Weekly", kind: ChannelType::FreeOpen, owner: Owner::Desk("Agriculture"),
              description: "Our weekly read of grains, oilseeds, softs and livestock: crops, weather and trade flows.",
              admins: &["marta.alvarez@insights.example"], authors: &["marta.alvarez@insights.example"],
              writers: &["tom.becker@insights.example", "aiko.tanaka@insights.example"],
              price: None, gl_account: None, trial_days: None,
              profile: Image::BadgeBlue, cover: Image::CoverWaves,
              subjects: &["wheat", "corn", "soybeans", "coffee", "sugar", "cocoa", "cattle"],
              topics: &["Commodities", "Commodities > Agriculture"], articles: 45 },
    Channel { name: "Energy Transition Briefing", kind: ChannelType::FreeClosed, owner: Owner::Desk("Energy"),
              description: "Carbon markets, LNG and battery metals for clients of the Energy desk; access on request.",
              admins: &["erin.editor@insights.example", "priya.raman@insights.example"],
              authors: &["erin.editor@insights.example"], writers: &["priya.raman@insights.example"],
              price: None, gl_account: None, trial_days: None,
              profile: Image::BadgeAmber, cover: Image::CoverLines,
              subjects: &["carbon", "lng", "lithium"],
              topics: &["Macro & Strategy > Thematics > Energy Transition", "Commodities > Carbon"], articles: 25 },
    Channel { name: "Macro Strategy Notes", kind: ChannelType::FreeClosed, owner: Owner::Contributor("jonathan.reid@insights.example"),
              description: "Jonathan Reid's notes on central banks, rates and currencies for institutional clients; access on request.",
              admins: &["lena.fischer@insights.example"], authors: &["jonathan.reid@insights.example"],
              writers: &["lena.fischer@insights.example"],
              price: None, gl_account: None, trial_days: None,
              profile: Image::BadgeBlue, cover: Image::CoverWaves,
              subjects: &["ust10", "bund", "eurusd", "usdcnh"],
              topics: &["Macro & Strategy", "Macro & Strategy > Central Banks", "Fixed Income"], articles: 20 },
];

/// The channel the welcome article (the demo's last write, and so its marker) is published in.
pub const WELCOME_CHANNEL: &str = "Market Pulse";

pub struct Reader {
    pub email: String,
    pub name: String,
    pub company: String,
    pub position: Option<&'static str>,
    pub scopes: Vec<String>,
    /// Days since the first sign-in (a trial runs from it).
    pub first_login_days_ago: i64,
    /// Days since the last sign-in.
    pub last_login_days_ago: i64,
}

impl Reader {
    pub fn is_trial(&self) -> bool {
        crate::auth::is_trial_reader(&self.scopes)
    }
}

#[rustfmt::skip]
const FIRST_NAMES: &[&str] = &[
    "Amelia", "Benjamin", "Carla", "David", "Elena", "Farid", "Gabriela", "Hugo", "Ingrid", "James",
    "Keiko", "Lucas", "Maya", "Nikolai", "Olivia", "Pablo", "Quinn", "Rania", "Samuel", "Tanvi",
    "Umar", "Valentina", "William", "Ximena", "Yusuf", "Zoe", "Anders", "Beatriz", "Connor", "Dalia",
    "Emeka", "Freya", "Giorgio", "Hana", "Isaac", "Julia", "Kwame", "Laura", "Mateo", "Nadia",
];

#[rustfmt::skip]
const LAST_NAMES: &[&str] = &[
    "Whitfield", "Moreau", "Santos", "Kowalski", "Petrova", "Haddad", "Rossi", "Lefebvre", "Berg", "O'Connor",
    "Nakamura", "Silva", "Patel", "Ivanov", "Hughes", "Navarro", "Walsh", "Aziz", "Cohen", "Mehta",
    "Farouk", "Romano", "Turner", "Delgado", "Demir", "Clarke", "Johansson", "Costa", "Byrne", "Mansour",
    "Okonkwo", "Larsen", "Bianchi", "Kim", "Abrams", "Schneider", "Mensah", "Fontaine", "Herrera", "Rahman",
];

/// (company, email domain)
#[rustfmt::skip]
const COMPANIES: &[(&str, &str)] = &[
    ("Northbridge Capital", "northbridge.example"), ("Helios Commodities Trading", "helios-trading.example"),
    ("Atlas Steel Group", "atlas-steel.example"), ("Meridian Asset Management", "meridian-am.example"),
    ("Blue Harbour Shipping", "blueharbour.example"), ("Granary Foods", "granary.example"),
    ("Kestrel Energy", "kestrel-energy.example"), ("Lindqvist & Moreau Partners", "lmpartners.example"),
    ("Pacific Rim Utilities", "pacrim-utilities.example"), ("Sable Hedge Fund", "sable-fund.example"),
    ("Orion Pension Trust", "orion-pension.example"), ("Verdant Mining", "verdant-mining.example"),
    ("Cobalt Bay Insurance", "cobaltbay.example"), ("Summit Airlines", "summit-air.example"),
];

#[rustfmt::skip]
const POSITIONS: &[&str] = &[
    "Portfolio Manager", "Commodity Trader", "Head of Procurement", "Risk Analyst", "Chief Investment Officer",
    "Credit Analyst", "Fuel Hedging Manager", "Economist", "Research Associate", "Treasury Manager",
];

/// How many readers there are besides the ready subscriber, trial reader and firm administrator.
pub const READER_COUNT: usize = 40;

/// The ready subscriber, trial reader and firm administrator of the sign-in page, then `READER_COUNT` others. Every
/// eighth other reader is a trial reader: those at even positions are still in their trial, the
/// others' ended. `trial_days` is the reader trial's length (configuration).
pub fn readers(trial_days: i64) -> Vec<Reader> {
    let ready = |key: &str| READY_USERS.iter().find(|u| u.key == key).expect("a ready user of the sign-in page");
    let owned = |scopes: &[&str]| scopes.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (sam, tara, fiona) = (ready("subscriber"), ready("trial"), ready("firmadmin"));
    let mut readers = vec![
        Reader {
            email: sam.email.to_owned(),
            name: sam.name.to_owned(),
            company: sam.company.to_owned(),
            position: Some("Portfolio Manager"),
            scopes: owned(sam.scopes),
            first_login_days_ago: 420,
            last_login_days_ago: 1,
        },
        // Tara's reader trial has about ten days left.
        Reader {
            email: tara.email.to_owned(),
            name: tara.name.to_owned(),
            company: tara.company.to_owned(),
            position: Some("Commodity Trader"),
            scopes: owned(tara.scopes),
            first_login_days_ago: (trial_days - 10).max(0),
            last_login_days_ago: 0,
        },
        // Fiona administers Northbridge Capital, a client firm (`demo::firms`).
        Reader {
            email: fiona.email.to_owned(),
            name: fiona.name.to_owned(),
            company: fiona.company.to_owned(),
            position: Some("Head of Research Procurement"),
            scopes: owned(fiona.scopes),
            first_login_days_ago: 200,
            last_login_days_ago: 2,
        },
    ];
    for i in 0..READER_COUNT {
        let (first, last) = (FIRST_NAMES[i], LAST_NAMES[i]);
        let (company, domain) = COMPANIES[i % COMPANIES.len()];
        let local: String = format!("{first}.{last}").to_lowercase().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
        let trial = i % 8 == 5;
        let (scopes, first_login) = if !trial {
            (owned(&[scopes::READER]), 30 + (i as i64 * 37) % 650)
        } else if i % 16 == 5 {
            (owned(&[scopes::TRIAL_READER]), (trial_days - 3 - (i as i64 % 5)).max(0))
        } else {
            (owned(&[scopes::TRIAL_READER]), trial_days + 20 + i as i64)
        };
        readers.push(Reader {
            email: format!("{local}@{domain}"),
            name: format!("{first} {last}"),
            company: company.to_owned(),
            position: (i % 4 != 3).then(|| POSITIONS[i % POSITIONS.len()]),
            scopes,
            first_login_days_ago: first_login,
            last_login_days_ago: ((i as i64 * 7) % 25).min(first_login),
        });
    }
    readers
}

/// Topics the ready readers follow (paths in the shipped taxonomy).
pub const SAM_FOLLOWS: &[&str] = &[
    "Commodities > Energy > Crude Oil",
    "Commodities > Metals > Base Metals > Copper",
    "Commodities > Metals > Precious Metals > Gold",
    "Commodities > Agriculture > Softs > Coffee",
    "Commodities > Carbon",
    "Macro & Strategy > Central Banks > Federal Reserve",
    "Foreign Exchange > G10",
];
pub const TARA_FOLLOWS: &[&str] =
    &["Equities > Europe > Industrials > Transportation > Shipping", "Commodities > Energy > Natural Gas > LNG", "Macro & Strategy"];
/// Topics other readers pick a few of.
pub const POPULAR_TOPICS: &[&str] = &[
    "Commodities",
    "Commodities > Energy",
    "Commodities > Energy > Crude Oil > Brent",
    "Commodities > Energy > Natural Gas",
    "Commodities > Metals > Base Metals",
    "Commodities > Metals > Precious Metals > Gold",
    "Commodities > Metals > Battery Metals > Lithium",
    "Commodities > Agriculture > Grains > Wheat",
    "Commodities > Agriculture > Softs > Cocoa",
    "Macro & Strategy > Central Banks",
    "Macro & Strategy > Economics > Inflation",
    "Fixed Income > North America",
    "Foreign Exchange > G10",
    "Equities > Asia Pacific > Industrials > Transportation > Shipping",
];

/// Root topics that get the demo's images (small: a badge, large: a cover).
pub const TOPIC_IMAGES: &[(&str, Image, Image)] = &[
    ("Commodities", Image::BadgeAmber, Image::CoverWaves),
    ("Macro & Strategy", Image::BadgeBlue, Image::CoverLines),
    ("Fixed Income", Image::BadgeBlue, Image::CoverWaves),
    ("Foreign Exchange", Image::BadgeAmber, Image::CoverLines),
];
