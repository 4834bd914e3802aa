//! What the demo articles are about: markets with their price levels, units and stock or data
//! series, and per theme the phrase banks the prose is built from (drivers that push prices up or
//! down, risks, upcoming events). Drivers are noun phrases that read after "on" and "despite".

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Theme {
    Oil,
    Refining,
    Gas,
    Carbon,
    BaseMetals,
    Precious,
    Battery,
    Grains,
    Softs,
    Livestock,
    Freight,
    Yields,
    EuroFx,
    ChinaFx,
    Equity,
}

pub struct Bank {
    pub up: &'static [&'static str],
    pub down: &'static [&'static str],
    pub risks: &'static [&'static str],
    pub events: &'static [&'static str],
}

/// A weekly stock series ("LME copper inventories").
pub struct Stocks {
    pub label: &'static str,
    /// For titles: "LME stocks".
    pub short: &'static str,
    pub unit: &'static str,
    pub level: f64,
}

/// A monthly data release with a consensus ("US core CPI").
pub struct Data {
    pub name: &'static str,
    pub unit: &'static str,
    pub level: f64,
    pub decimals: usize,
}

pub struct Subject {
    pub key: &'static str,
    /// Title case, for headlines: "Copper".
    pub name: &'static str,
    /// Inside a sentence: "copper".
    pub lower: &'static str,
    /// The quoted price: "LME three-month copper".
    pub market: &'static str,
    pub prefix: &'static str,
    pub suffix: &'static str,
    /// The unit for captions: "$/t".
    pub unit: &'static str,
    pub base: f64,
    pub decimals: usize,
    /// Typical weekly move in percent (for yields: in basis points).
    pub volatility: f64,
    /// Moves are quoted in basis points (yields).
    pub in_bp: bool,
    pub stocks: Option<Stocks>,
    /// Unit and typical size of our supply–demand balance.
    pub balance: Option<(&'static str, f64)>,
    pub data: Option<Data>,
    pub theme: Theme,
    pub topics: &'static [&'static str],
    pub tags: &'static [&'static str],
}

const fn subject(key: &'static str, name: &'static str, lower: &'static str, market: &'static str, theme: Theme) -> Subject {
    Subject {
        key,
        name,
        lower,
        market,
        prefix: "$",
        suffix: "",
        unit: "",
        base: 100.0,
        decimals: 2,
        volatility: 2.0,
        in_bp: false,
        stocks: None,
        balance: None,
        data: None,
        theme,
        topics: &[],
        tags: &[],
    }
}

#[rustfmt::skip]
pub const SUBJECTS: &[Subject] = &[
    // ---- energy ----
    Subject { suffix: "/bbl", unit: "$/bbl", base: 82.0, volatility: 2.6,
              stocks: Some(Stocks { label: "US commercial crude inventories", short: "US crude stocks", unit: "million barrels", level: 440.0 }),
              balance: Some(("mb/d", 0.6)),
              topics: &["Commodities > Energy > Crude Oil > Brent", "Commodities > Energy > Crude Oil", "Equities > Global > Energy"],
              tags: &["Oil", "Geopolitics"],
              ..subject("brent", "Brent", "Brent", "Front-month Brent", Theme::Oil) },
    Subject { suffix: "/bbl", unit: "$/bbl", base: 78.0, volatility: 2.8,
              stocks: Some(Stocks { label: "Crude stocks at Cushing", short: "Cushing stocks", unit: "million barrels", level: 32.0 }),
              topics: &["Commodities > Energy > Crude Oil > WTI", "Commodities > Energy > Crude Oil", "Equities > North America > Energy > Oil & Gas"],
              tags: &["Oil"],
              ..subject("wti", "WTI", "WTI", "Front-month WTI", Theme::Oil) },
    Subject { suffix: "/bbl", unit: "$/bbl", base: 24.0, volatility: 6.0,
              stocks: Some(Stocks { label: "ARA gasoil inventories", short: "ARA gasoil stocks", unit: "kt", level: 2100.0 }),
              topics: &["Commodities > Energy > Refined Products > Diesel", "Commodities > Energy > Refined Products", "Equities > North America > Energy > Oil & Gas > Refining & Marketing"],
              tags: &["Oil", "Supply Chains"],
              ..subject("diesel", "Diesel cracks", "diesel cracks", "The ICE gasoil crack against Brent", Theme::Refining) },
    Subject { suffix: "/MMBtu", unit: "$/MMBtu", base: 2.9, decimals: 3, volatility: 6.0,
              stocks: Some(Stocks { label: "US working gas in storage", short: "US gas storage", unit: "Bcf", level: 3300.0 }),
              balance: Some(("bcf/d", 2.0)),
              topics: &["Commodities > Energy > Natural Gas > Henry Hub", "Commodities > Energy > Natural Gas", "Equities > North America > Energy"],
              tags: &["Energy Transition"],
              ..subject("henry-hub", "Henry Hub", "US gas", "Front-month Henry Hub", Theme::Gas) },
    Subject { prefix: "€", suffix: "/MWh", unit: "€/MWh", base: 38.0, volatility: 5.5,
              stocks: Some(Stocks { label: "EU gas storage", short: "EU storage", unit: "TWh", level: 900.0 }),
              balance: Some(("bcm", 8.0)),
              topics: &["Commodities > Energy > Natural Gas > TTF", "Commodities > Energy > Natural Gas", "Equities > Europe > Utilities"],
              tags: &["Geopolitics", "Energy Transition"],
              ..subject("ttf", "European gas", "European gas", "Front-month TTF", Theme::Gas) },
    Subject { suffix: "/MMBtu", unit: "$/MMBtu", base: 12.0, volatility: 4.5,
              balance: Some(("Mt", 5.0)),
              topics: &["Commodities > Energy > Natural Gas > LNG", "Commodities > Energy > Natural Gas"],
              tags: &["Energy Transition", "Supply Chains"],
              ..subject("lng", "LNG", "LNG", "The JKM spot price", Theme::Gas) },
    Subject { prefix: "€", suffix: "/t", unit: "€/t", base: 70.0, volatility: 4.0,
              balance: Some(("Mt", 60.0)),
              topics: &["Commodities > Carbon > Compliance Markets > EU ETS", "Commodities > Carbon > Compliance Markets", "Commodities > Carbon"],
              tags: &["Carbon", "Energy Transition", "Regulation", "ESG"],
              ..subject("carbon", "EU carbon", "EU carbon", "The December EUA contract", Theme::Carbon) },
    // ---- metals ----
    Subject { suffix: "/t", unit: "$/t", base: 9300.0, decimals: 0, volatility: 2.2,
              stocks: Some(Stocks { label: "LME copper inventories", short: "LME stocks", unit: "t", level: 140_000.0 }),
              balance: Some(("kt", 180.0)),
              topics: &["Commodities > Metals > Base Metals > Copper", "Commodities > Metals > Base Metals", "Equities > Global > Materials"],
              tags: &["Copper", "China", "Energy Transition"],
              ..subject("copper", "Copper", "copper", "LME three-month copper", Theme::BaseMetals) },
    Subject { suffix: "/t", unit: "$/t", base: 2400.0, decimals: 0, volatility: 1.8,
              stocks: Some(Stocks { label: "LME aluminium inventories", short: "LME stocks", unit: "t", level: 520_000.0 }),
              balance: Some(("kt", 400.0)),
              topics: &["Commodities > Metals > Base Metals > Aluminium", "Commodities > Metals > Base Metals"],
              tags: &["China", "Tariffs"],
              ..subject("aluminium", "Aluminium", "aluminium", "LME three-month aluminium", Theme::BaseMetals) },
    Subject { suffix: "/t", unit: "$/t", base: 17000.0, decimals: 0, volatility: 3.0,
              stocks: Some(Stocks { label: "LME nickel inventories", short: "LME stocks", unit: "t", level: 90_000.0 }),
              balance: Some(("kt", 120.0)),
              topics: &["Commodities > Metals > Base Metals > Nickel", "Commodities > Metals > Battery Metals", "Commodities > Metals > Base Metals"],
              tags: &["Energy Transition", "Emerging Markets"],
              ..subject("nickel", "Nickel", "nickel", "LME three-month nickel", Theme::BaseMetals) },
    Subject { suffix: "/t", unit: "$/t", base: 2650.0, decimals: 0, volatility: 2.0,
              stocks: Some(Stocks { label: "LME zinc inventories", short: "LME stocks", unit: "t", level: 220_000.0 }),
              balance: Some(("kt", 150.0)),
              topics: &["Commodities > Metals > Base Metals > Zinc", "Commodities > Metals > Base Metals"],
              tags: &["China"],
              ..subject("zinc", "Zinc", "zinc", "LME three-month zinc", Theme::BaseMetals) },
    Subject { suffix: "/oz", unit: "$/oz", base: 2250.0, decimals: 0, volatility: 1.5,
              stocks: Some(Stocks { label: "Gold ETF holdings", short: "ETF holdings", unit: "t", level: 3200.0 }),
              topics: &["Commodities > Metals > Precious Metals > Gold", "Commodities > Metals > Precious Metals"],
              tags: &["Gold", "Interest Rates"],
              ..subject("gold", "Gold", "gold", "Spot gold", Theme::Precious) },
    Subject { suffix: "/oz", unit: "$/oz", base: 27.0, volatility: 2.6,
              stocks: Some(Stocks { label: "COMEX silver inventories", short: "COMEX stocks", unit: "Moz", level: 290.0 }),
              balance: Some(("Moz", 150.0)),
              topics: &["Commodities > Metals > Precious Metals > Silver", "Commodities > Metals > Precious Metals"],
              tags: &["Gold"],
              ..subject("silver", "Silver", "silver", "Spot silver", Theme::Precious) },
    Subject { prefix: "CNY ", suffix: "/t", unit: "CNY/t", base: 95_000.0, decimals: 0, volatility: 3.5,
              balance: Some(("kt LCE", 60.0)),
              topics: &["Commodities > Metals > Battery Metals > Lithium", "Commodities > Metals > Battery Metals", "Macro & Strategy > Thematics > Energy Transition"],
              tags: &["Energy Transition", "China"],
              ..subject("lithium", "Lithium", "lithium", "Chinese lithium carbonate", Theme::Battery) },
    // ---- agriculture ----
    Subject { prefix: "", suffix: "¢/bu", unit: "¢/bu", base: 590.0, decimals: 0, volatility: 3.0,
              balance: Some(("Mt", 8.0)),
              topics: &["Commodities > Agriculture > Grains > Wheat", "Commodities > Agriculture > Grains"],
              tags: &["Geopolitics", "Emerging Markets"],
              ..subject("wheat", "Wheat", "wheat", "CBOT wheat", Theme::Grains) },
    Subject { prefix: "", suffix: "¢/bu", unit: "¢/bu", base: 450.0, decimals: 0, volatility: 2.8,
              balance: Some(("Mt", 12.0)),
              topics: &["Commodities > Agriculture > Grains > Corn", "Commodities > Agriculture > Grains"],
              tags: &["Energy Transition"],
              ..subject("corn", "Corn", "corn", "CBOT corn", Theme::Grains) },
    Subject { prefix: "", suffix: "¢/bu", unit: "¢/bu", base: 1150.0, decimals: 0, volatility: 2.5,
              balance: Some(("Mt", 6.0)),
              topics: &["Commodities > Agriculture > Grains > Soybeans", "Commodities > Agriculture > Grains"],
              tags: &["China", "Tariffs"],
              ..subject("soybeans", "Soybeans", "soybeans", "CBOT soybeans", Theme::Grains) },
    Subject { prefix: "", suffix: "¢/lb", unit: "¢/lb", base: 230.0, volatility: 4.0,
              stocks: Some(Stocks { label: "ICE-certified arabica stocks", short: "certified stocks", unit: "bags", level: 800_000.0 }),
              balance: Some(("million bags", 3.0)),
              topics: &["Commodities > Agriculture > Softs > Coffee", "Commodities > Agriculture > Softs"],
              tags: &["Emerging Markets"],
              ..subject("coffee", "Coffee", "coffee", "ICE arabica", Theme::Softs) },
    Subject { prefix: "", suffix: "¢/lb", unit: "¢/lb", base: 21.0, volatility: 3.5,
              balance: Some(("Mt", 2.5)),
              topics: &["Commodities > Agriculture > Softs > Sugar", "Commodities > Agriculture > Softs"],
              tags: &["Emerging Markets", "Energy Transition"],
              ..subject("sugar", "Sugar", "sugar", "ICE raw sugar", Theme::Softs) },
    Subject { suffix: "/t", unit: "$/t", base: 6500.0, decimals: 0, volatility: 5.0,
              stocks: Some(Stocks { label: "ICE-certified cocoa stocks", short: "certified stocks", unit: "t", level: 150_000.0 }),
              balance: Some(("kt", 250.0)),
              topics: &["Commodities > Agriculture > Softs > Cocoa", "Commodities > Agriculture > Softs"],
              tags: &["Emerging Markets", "ESG"],
              ..subject("cocoa", "Cocoa", "cocoa", "ICE New York cocoa", Theme::Softs) },
    Subject { prefix: "", suffix: "¢/lb", unit: "¢/lb", base: 180.0, volatility: 1.5,
              topics: &["Commodities > Agriculture > Livestock > Cattle", "Commodities > Agriculture > Livestock"],
              tags: &["Inflation"],
              ..subject("cattle", "Live cattle", "live cattle", "CME live cattle", Theme::Livestock) },
    // ---- shipping ----
    Subject { suffix: "/day", unit: "$/day", base: 21_000.0, decimals: 0, volatility: 8.0,
              data: Some(Data { name: "Brazilian iron-ore shipments", unit: " Mt", level: 30.0, decimals: 1 }),
              topics: &["Equities > Asia Pacific > Industrials > Transportation > Shipping", "Equities > Europe > Industrials > Transportation > Shipping", "Commodities > Metals"],
              tags: &["Supply Chains", "China"],
              ..subject("capesize", "Capesize", "capesize rates", "The Baltic capesize 5TC average", Theme::Freight) },
    Subject { suffix: "/day", unit: "$/day", base: 42_000.0, decimals: 0, volatility: 9.0,
              data: Some(Data { name: "Middle East crude exports", unit: " mb/d", level: 17.5, decimals: 1 }),
              topics: &["Equities > Europe > Industrials > Transportation > Shipping", "Commodities > Energy > Crude Oil", "Macro & Strategy > Geopolitics > Sanctions"],
              tags: &["Oil", "Sanctions", "Geopolitics"],
              ..subject("vlcc", "VLCC rates", "VLCC rates", "VLCC Middle East–China earnings", Theme::Freight) },
    Subject { prefix: "", suffix: " points", unit: "index points", base: 1700.0, decimals: 0, volatility: 7.0,
              data: Some(Data { name: "Chinese coal imports", unit: " Mt", level: 40.0, decimals: 1 }),
              topics: &["Equities > Asia Pacific > Industrials > Transportation > Shipping", "Macro & Strategy > Geopolitics > Trade Policy"],
              tags: &["China", "Supply Chains"],
              ..subject("dry-bulk", "Dry bulk", "dry-bulk rates", "The Baltic Dry Index", Theme::Freight) },
    Subject { suffix: "/FEU", unit: "$/FEU", base: 3200.0, decimals: 0, volatility: 6.0,
              data: Some(Data { name: "Container ships rerouted around the Cape", unit: " vessels", level: 340.0, decimals: 0 }),
              topics: &["Equities > Europe > Industrials > Transportation > Shipping", "Macro & Strategy > Geopolitics > Trade Policy", "Private Markets > Infrastructure > Transport Infrastructure"],
              tags: &["Supply Chains", "Tariffs"],
              ..subject("containers", "Container freight", "container rates", "Shanghai–Rotterdam spot container rates", Theme::Freight) },
    // ---- macro ----
    Subject { prefix: "", suffix: "%", unit: "%", base: 4.2, volatility: 10.0, in_bp: true,
              data: Some(Data { name: "US core CPI", unit: "% y/y", level: 3.2, decimals: 1 }),
              topics: &["Fixed Income > North America", "Macro & Strategy > Central Banks > Federal Reserve", "Macro & Strategy > Economics > Inflation"],
              tags: &["Interest Rates", "Inflation"],
              ..subject("ust10", "US 10-year yield", "the US 10-year yield", "The 10-year US Treasury yield", Theme::Yields) },
    Subject { prefix: "", suffix: "%", unit: "%", base: 2.4, volatility: 8.0, in_bp: true,
              data: Some(Data { name: "The euro-area composite PMI", unit: "", level: 49.5, decimals: 1 }),
              topics: &["Fixed Income > Europe", "Macro & Strategy > Central Banks > European Central Bank", "Macro & Strategy > Economics > Growth"],
              tags: &["Interest Rates", "Fiscal Policy"],
              ..subject("bund", "Bund yield", "the 10-year Bund yield", "The 10-year Bund yield", Theme::Yields) },
    Subject { prefix: "", base: 1.08, decimals: 4, volatility: 0.8,
              data: Some(Data { name: "US non-farm payrolls", unit: "k", level: 180.0, decimals: 0 }),
              topics: &["Foreign Exchange > G10", "Macro & Strategy > Central Banks > European Central Bank", "Macro & Strategy > Central Banks > Federal Reserve"],
              tags: &["Interest Rates", "Labour Market"],
              ..subject("eurusd", "EUR/USD", "EUR/USD", "EUR/USD", Theme::EuroFx) },
    Subject { prefix: "", base: 7.2, decimals: 4, volatility: 0.5,
              data: Some(Data { name: "China's official manufacturing PMI", unit: "", level: 49.8, decimals: 1 }),
              topics: &["Foreign Exchange > Asia FX", "Macro & Strategy > Central Banks > People's Bank of China", "Macro & Strategy > Economics > Growth"],
              tags: &["China", "Emerging Markets"],
              ..subject("usdcnh", "USD/CNH", "USD/CNH", "USD/CNH", Theme::ChinaFx) },
    Subject { prefix: "", base: 5200.0, decimals: 0, volatility: 1.8,
              data: Some(Data { name: "The US ISM services index", unit: "", level: 52.0, decimals: 1 }),
              topics: &["Equities > North America", "Multi-Asset", "Macro & Strategy > Thematics > Artificial Intelligence"],
              tags: &["Valuation", "Earnings", "Artificial Intelligence"],
              ..subject("sp500", "US equities", "US equities", "The S&P 500", Theme::Equity) },
];

pub fn subject_by_key(key: &str) -> &'static Subject {
    SUBJECTS.iter().find(|s| s.key == key).unwrap_or_else(|| panic!("no demo subject {key}"))
}

#[rustfmt::skip]
pub fn bank(theme: Theme) -> Bank {
    match theme {
        Theme::Oil => Bank {
            up: &["OPEC+ supply discipline", "a large draw in US crude stocks", "renewed tension in the Middle East", "stronger Chinese refinery runs", "outages in Libya"],
            down: &["softer Chinese import demand", "rising non-OPEC supply", "a build in US crude stocks", "talk of a faster OPEC+ unwind", "weak refining margins"],
            risks: &["a faster unwinding of OPEC+ cuts", "a slowdown in Chinese refinery runs", "an active hurricane season in the US Gulf", "tighter enforcement of sanctions on Russian exports"],
            events: &["the OPEC+ ministerial meeting", "the IEA's monthly oil market report", "weekly EIA inventory data"],
        },
        Theme::Refining => Bank {
            up: &["refinery maintenance season", "low middle-distillate stocks in Europe", "Red Sea diversions lengthening product voyages", "a cold snap lifting heating-oil demand"],
            down: &["new refining capacity in the Middle East", "weak European industrial activity", "higher refinery runs after maintenance", "a mild start to winter"],
            risks: &["unplanned refinery outages", "a rebound in Russian product exports", "weak trucking demand"],
            events: &["the end of refinery maintenance season", "the IEA's monthly oil market report", "fortnightly ARA stock reports"],
        },
        Theme::Gas => Bank {
            up: &["a colder-than-normal start to winter", "Norwegian field outages", "strong Asian LNG buying", "low wind output", "a heatwave lifting power burn"],
            down: &["storage running well above the five-year average", "mild weather forecasts", "weak industrial demand", "a wave of new liquefaction capacity"],
            risks: &["a late-winter cold snap", "an outage at a major LNG plant", "a faster recovery in European industrial demand", "a hot summer in Asia"],
            events: &["the start of the heating season", "the EU storage deadline", "weekly storage data"],
        },
        Theme::Carbon => Bank {
            up: &["tighter auction supply", "a cold, windless spell lifting coal burn", "stronger industrial output", "compliance buying ahead of the deadline"],
            down: &["weak industrial output", "strong renewable generation", "front-loaded auction volumes", "speculative selling by funds"],
            risks: &["political pressure to soften the cap", "a mild winter", "a recession in Europe", "changes to the market stability reserve"],
            events: &["the compliance deadline", "the market stability reserve update", "the vote on the 2040 target"],
        },
        Theme::BaseMetals => Bank {
            up: &["smelter cutbacks in Yunnan", "Chinese grid investment", "tight concentrate supply", "restocking by Chinese fabricators", "a softer US dollar"],
            down: &["weak European demand", "rising exchange inventories", "a stronger US dollar", "soft Chinese property data", "the restart of idled smelters"],
            risks: &["a deeper slowdown in Chinese property", "tariff escalation", "export restrictions on concentrate", "a stronger dollar"],
            events: &["LME Week", "China's monthly trade data", "the Fed's next decision"],
        },
        Theme::Precious => Bank {
            up: &["central bank buying", "falling real yields", "safe-haven demand", "a softer US dollar", "strong Indian jewellery demand"],
            down: &["rising real yields", "ETF outflows", "a stronger US dollar", "weak Chinese retail demand"],
            risks: &["a hawkish Fed surprise", "a slowdown in central bank buying", "profit-taking by macro funds"],
            events: &["the next FOMC decision", "the quarterly demand trends report", "the US CPI release"],
        },
        Theme::Battery => Bank {
            up: &["mine closures in Australia", "strong electric-vehicle sales in China", "supply cuts in Jiangxi", "restocking by cathode makers"],
            down: &["new supply from African projects", "slower EV sales in Europe", "high inventories at converters", "a fast ramp-up of new capacity"],
            risks: &["further EV subsidy cuts", "faster-than-expected project ramp-ups", "new export controls"],
            events: &["China's monthly EV sales data", "the next round of Australian mine updates", "the Indonesian quota review"],
        },
        Theme::Grains => Bank {
            up: &["a dry spell in the US Midwest", "La Niña risk for Argentina", "strong Chinese buying", "Black Sea export disruption", "lower-than-expected US acreage"],
            down: &["Brazil's record safrinha harvest", "strong Black Sea export flows", "good US crop conditions", "a weaker Brazilian real", "weak export sales"],
            risks: &["a weather scare during pollination", "a larger-than-expected US acreage", "a change in Chinese import policy", "disruption to Black Sea exports"],
            events: &["the USDA WASDE report", "the USDA acreage report", "weekly crop condition ratings"],
        },
        Theme::Softs => Bank {
            up: &["a smaller West African mid-crop", "dry weather in Brazil", "strong Indian demand", "low certified stocks"],
            down: &["a larger Brazilian crop", "improved West African port arrivals", "a weaker Brazilian real", "demand rationing by grinders"],
            risks: &["frost in Brazil", "a return of El Niño", "policy changes in India", "the EU deforestation rules"],
            events: &["UNICA's cane crush data", "Ivory Coast port arrivals", "the Brazilian frost season"],
        },
        Theme::Livestock => Bank {
            up: &["a shrinking US herd", "strong retail beef demand", "tight feeder cattle supplies"],
            down: &["higher placements on feed", "weak packer margins", "softer export demand"],
            risks: &["a disease outbreak", "a drop in consumer demand", "cheaper feed grains encouraging placements"],
            events: &["the USDA cattle on feed report", "the grilling season", "monthly export data"],
        },
        Theme::Freight => Bank {
            up: &["Red Sea diversions around the Cape of Good Hope", "Panama Canal draft restrictions", "strong Brazilian iron-ore shipments", "port congestion in northern China", "longer tonne-mile voyages"],
            down: &["a wave of newbuild deliveries", "weaker Chinese steel output", "a seasonal lull in cargoes", "easing port congestion"],
            risks: &["a reopening of the Red Sea route", "faster fleet growth", "weaker Chinese steel output", "the extension of the EU ETS to shipping"],
            events: &["Chinese steel output data", "the IMO emissions talks", "the Lunar New Year slowdown"],
        },
        Theme::Yields => Bank {
            up: &["sticky services inflation", "strong payrolls", "fiscal slippage", "rising term premia", "heavy supply at auctions"],
            down: &["a cooling labour market", "softer inflation data", "dovish central bank signals", "safe-haven demand", "weak PMIs"],
            risks: &["a re-acceleration of inflation", "a disorderly rise in term premia", "a sharper slowdown in hiring", "a credit event"],
            events: &["the next FOMC meeting", "the ECB's rate decision", "the US CPI release"],
        },
        Theme::EuroFx => Bank {
            up: &["a weaker dollar", "hawkish ECB commentary", "improving euro-area PMIs", "narrowing rate differentials"],
            down: &["a stronger dollar", "dovish ECB signals", "tariff escalation", "weak German industrial data"],
            risks: &["tariff escalation", "a hawkish Fed surprise", "French fiscal politics"],
            events: &["the ECB's rate decision", "US payrolls", "the euro-area flash PMIs"],
        },
        Theme::ChinaFx => Bank {
            up: &["PBoC easing", "tariff escalation", "weak Chinese exports", "capital outflows"],
            down: &["stronger PBoC fixings", "property-sector support measures", "a weaker dollar", "strong exports"],
            risks: &["a property-sector credit event", "tariff escalation", "deflation pressure"],
            events: &["China's Politburo meeting", "the loan prime rate decision", "China's trade data"],
        },
        Theme::Equity => Bank {
            up: &["strong AI-related earnings", "falling bond yields", "resilient consumer spending", "record buyback activity"],
            down: &["rising bond yields", "stretched valuations", "tariff escalation", "disappointing guidance"],
            risks: &["a re-rating of AI capex", "a hawkish Fed surprise", "an earnings recession", "a spike in volatility"],
            events: &["the next FOMC meeting", "the earnings season", "the US CPI release"],
        },
    }
}

/// Sentences that follow a driver, for any market.
pub const ELABORATIONS: &[&str] = &[
    "We think the market still underestimates how long this lasts.",
    "Its effect should fade over the coming weeks, but probably not before the next data point.",
    "Physical premiums already reflect much of it; futures do not yet.",
    "Our conversations with clients suggest few are positioned for it.",
    "Options skew has moved the same way over the past fortnight.",
    "We see it as a second-order effect rather than the start of a new trend.",
    "The same pattern played out last year, and it took about a month to reverse.",
];

/// Outlook headlines for a constructive and a cautious view.
pub const BULLISH_STANCES: &[&str] =
    &["tighter than it looks", "still constructive", "downside is limited", "the deficit returns", "upside risks build"];
pub const BEARISH_STANCES: &[&str] = &[
    "a softer second half",
    "surplus risk builds",
    "time to turn cautious",
    "range-bound with downside risks",
    "the rally runs out of road",
];
