//! The checkout's country lists (spec 3 §3): ISO 3166-1 countries (`isoCountries`, from the
//! rust_iso3166 crate) and the tax id types Stripe accepts, by country (`stripeTaxCountries`:
//! every `country_kind` code async-stripe's `TaxIdType` — Stripe's published enum — knows).

use std::sync::LazyLock;

use stripe_shared::TaxIdType;

/// A country: its English short name and ISO alpha-2 code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Country {
    pub name: &'static str,
    pub alpha2: &'static str,
}

/// A tax id type Stripe accepts: the country's name, Stripe's code (`gb_vat`) and a description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxCountry {
    pub name: String,
    pub code: String,
    pub description: String,
}

/// Every ISO 3166-1 country, by name.
pub fn iso_countries() -> &'static [Country] {
    static COUNTRIES: LazyLock<Vec<Country>> = LazyLock::new(|| {
        let mut countries: Vec<Country> = rust_iso3166::ALL.iter().map(|c| Country { name: c.name, alpha2: c.alpha2 }).collect();
        countries.sort_by(|a, b| a.name.cmp(b.name));
        countries
    });
    &COUNTRIES
}

/// Whether `code` is an ISO 3166-1 alpha-2 country code (upper case).
pub fn is_country(code: &str) -> bool {
    rust_iso3166::from_alpha2(code).is_some_and(|country| country.alpha2 == code)
}

/// The kinds of tax id Stripe names after a country (`{country}_{kind}`). Which of them exist for
/// which country is Stripe's to say: a code is listed only when its `TaxIdType` knows it.
const KINDS: &[&str] = &[
    "abn", "arn", "bin", "bn", "br", "brn", "cf", "cif", "cn", "cnpj", "cpf", "cuit", "ein", "fin", "frp", "gst", "gst_hst", "ifu", "inn",
    "itn", "kpp", "nif", "nip", "nit", "niu", "ninea", "npwp", "nrt", "oib", "oss_vat", "pan", "pib", "pin", "pst_bc", "pst_mb", "pst_sk",
    "qst", "rcn", "rfc", "rif", "rn", "ruc", "sst", "stn", "tin", "trn", "uen", "uic", "uid", "vat", "voec",
];

/// Stripe's tax id types with their country, by country name then code.
pub fn stripe_tax_countries() -> &'static [TaxCountry] {
    static TAX_COUNTRIES: LazyLock<Vec<TaxCountry>> = LazyLock::new(|| {
        let mut countries: Vec<(String, &str)> = rust_iso3166::ALL.iter().map(|c| (c.alpha2.to_lowercase(), c.name)).collect();
        // Stripe's tax ids for the whole European Union.
        countries.push(("eu".to_owned(), "European Union"));
        let mut list = Vec::new();
        for (prefix, name) in &countries {
            for kind in KINDS {
                let code = format!("{prefix}_{kind}");
                if is_stripe_type(&code) {
                    let description = format!("{name} {}", kind.replace('_', " ").to_uppercase());
                    list.push(TaxCountry { name: (*name).to_owned(), code, description });
                }
            }
        }
        list.sort_by(|a, b| a.name.cmp(&b.name).then(a.code.cmp(&b.code)));
        list
    });
    &TAX_COUNTRIES
}

/// Whether Stripe's API knows the tax id type `code`.
pub fn is_stripe_type(code: &str) -> bool {
    // async-stripe logs a warning for every code it does not know; building the list tries
    // ~12,000 that are not Stripe's, and a reader's unknown code is answered with a message.
    tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
        code.parse::<TaxIdType>().is_ok_and(|kind| !matches!(kind, TaxIdType::_Unknown(_)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tax_id_types_are_stripes() {
        let list = stripe_tax_countries();
        assert!(list.len() > 100, "{} types", list.len());
        let gb = list.iter().find(|t| t.code == "gb_vat").expect("gb_vat");
        assert_eq!(gb.description, "United Kingdom of Great Britain and Northern Ireland VAT");
        assert!(list.iter().any(|t| t.code == "eu_vat" && t.name == "European Union"));
        assert!(list.iter().any(|t| t.code == "us_ein"));
        assert!(!list.iter().any(|t| t.code == "gb_ein"), "only the types Stripe has");
        assert!(list.iter().all(|t| is_stripe_type(&t.code)));
    }

    #[test]
    fn iso_countries_come_from_the_standard() {
        assert!(iso_countries().len() >= 249);
        assert!(is_country("GB") && is_country("US") && !is_country("gb") && !is_country("XX"));
    }
}
