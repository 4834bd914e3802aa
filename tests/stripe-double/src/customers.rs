//! Customers, their tax ids (format checks for the common types, Stripe's `tax_id_invalid`, a
//! limit per customer) and their payment methods.

use serde_json::{Map, Value, json};

use crate::{
    error::ApiError,
    events::emit,
    fixtures::template,
    params::Params,
    store::{Store, new_id},
};

/// Every `type` Stripe's TaxId accepts (async-stripe's `TaxIdType`, API 2026).
const TAX_ID_TYPES: &[&str] = &[
    "ad_nrt",
    "ae_trn",
    "al_tin",
    "am_tin",
    "ao_tin",
    "ar_cuit",
    "au_abn",
    "au_arn",
    "aw_tin",
    "az_tin",
    "ba_tin",
    "bb_tin",
    "bd_bin",
    "bf_ifu",
    "bg_uic",
    "bh_vat",
    "bj_ifu",
    "bo_tin",
    "br_cnpj",
    "br_cpf",
    "bs_tin",
    "by_tin",
    "ca_bn",
    "ca_gst_hst",
    "ca_pst_bc",
    "ca_pst_mb",
    "ca_pst_sk",
    "ca_qst",
    "cd_nif",
    "ch_uid",
    "ch_vat",
    "cl_tin",
    "cm_niu",
    "cn_tin",
    "co_nit",
    "cr_tin",
    "cv_nif",
    "de_stn",
    "do_rcn",
    "ec_ruc",
    "eg_tin",
    "es_cif",
    "et_tin",
    "eu_oss_vat",
    "eu_vat",
    "fo_vat",
    "gb_vat",
    "ge_vat",
    "gi_tin",
    "gn_nif",
    "hk_br",
    "hr_oib",
    "hu_tin",
    "ic_nif",
    "id_npwp",
    "il_vat",
    "in_gst",
    "is_vat",
    "it_cf",
    "jp_cn",
    "jp_rn",
    "jp_trn",
    "ke_pin",
    "kg_tin",
    "kh_tin",
    "kr_brn",
    "kz_bin",
    "la_tin",
    "li_uid",
    "li_vat",
    "lk_vat",
    "ma_vat",
    "md_vat",
    "me_pib",
    "mk_vat",
    "mr_nif",
    "mx_rfc",
    "my_frp",
    "my_itn",
    "my_sst",
    "ng_tin",
    "no_vat",
    "no_voec",
    "np_pan",
    "nz_gst",
    "om_vat",
    "pe_ruc",
    "ph_tin",
    "pl_nip",
    "py_ruc",
    "ro_tin",
    "rs_pib",
    "ru_inn",
    "ru_kpp",
    "sa_vat",
    "sg_gst",
    "sg_uen",
    "si_tin",
    "sn_ninea",
    "sr_fin",
    "sv_nit",
    "th_vat",
    "tj_tin",
    "tr_tin",
    "tw_vat",
    "tz_vat",
    "ua_vat",
    "ug_tin",
    "us_ein",
    "uy_ruc",
    "uz_tin",
    "uz_vat",
    "ve_rif",
    "vn_tin",
    "za_vat",
    "zm_tin",
    "zw_tin",
];

const EU_PREFIXES: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL",
    "PT", "RO", "SE", "SI", "SK", "XI",
];

fn digits(text: &str, count: usize) -> bool {
    text.len() == count && text.chars().all(|c| c.is_ascii_digit())
}

/// Format check of a tax id value; returns the country Stripe reports, or None when invalid.
/// Types without a check here are accepted as given (Stripe checks many more).
fn check_tax_id(kind: &str, value: &str) -> Option<String> {
    let compact: String = value.chars().filter(|c| !matches!(c, ' ' | '-' | '.')).collect::<String>().to_uppercase();
    if !compact.is_ascii() {
        return None;
    }
    let ok = match kind {
        "eu_vat" => {
            let (prefix, rest) = compact.split_at(compact.len().min(2));
            EU_PREFIXES.contains(&prefix)
                && match prefix {
                    "DE" | "EE" | "EL" | "PT" => digits(rest, 9),
                    "FR" => {
                        rest.len() == 11
                            && rest[2..].chars().all(|c| c.is_ascii_digit())
                            && rest[..2].chars().all(|c| c.is_ascii_alphanumeric())
                    }
                    "AT" => rest.len() == 9 && rest.starts_with('U') && rest[1..].chars().all(|c| c.is_ascii_digit()),
                    "NL" => rest.len() == 12 && digits(&rest[..9], 9) && &rest[9..10] == "B" && digits(&rest[10..], 2),
                    "BE" => digits(rest, 10),
                    "DK" | "FI" | "HU" | "LU" | "MT" | "SI" => digits(rest, 8),
                    "IT" | "LV" | "HR" => digits(rest, 11),
                    "SE" => digits(rest, 12),
                    _ => (8..=12).contains(&rest.len()) && rest.chars().all(|c| c.is_ascii_alphanumeric()),
                }
        }
        "gb_vat" => compact.strip_prefix("GB").is_some_and(|rest| digits(rest, 9) || digits(rest, 12)),
        "us_ein" => digits(&compact, 9),
        "au_abn" => digits(&compact, 11),
        "ca_bn" => digits(&compact, 9),
        "ch_vat" | "ch_uid" => {
            let rest = compact.strip_prefix("CHE").unwrap_or("");
            let number = rest.trim_end_matches("MWST").trim_end_matches("TVA").trim_end_matches("IVA");
            digits(number, 9) && (kind == "ch_uid" || number.len() < rest.len())
        }
        "no_vat" => compact.strip_suffix("MVA").is_some_and(|number| digits(number, 9)),
        "nz_gst" => digits(&compact, 8) || digits(&compact, 9),
        "in_gst" => compact.len() == 15 && compact.chars().all(|c| c.is_ascii_alphanumeric()),
        _ => !compact.is_empty(),
    };
    if !ok {
        return None;
    }
    Some(match kind {
        "eu_vat" => match &compact[..2] {
            "EL" => "GR".to_owned(),
            "XI" => "GB".to_owned(),
            prefix => prefix.to_owned(),
        },
        "eu_oss_vat" => "EU".to_owned(),
        other => other.split('_').next().unwrap_or_default().to_uppercase(),
    })
}

fn apply_customer_params(customer: &mut Value, params: &Params) -> Result<Map<String, Value>, ApiError> {
    let mut previous = Map::new();
    for key in ["name", "email", "phone", "description"] {
        if let Some(value) = params.str(key) {
            previous.insert(key.into(), customer[key].clone());
            customer[key] = if value.is_empty() { Value::Null } else { json!(value) };
        }
    }
    if let Some(address) = params.get("address").and_then(Value::as_object) {
        previous.insert("address".into(), customer["address"].clone());
        let mut merged = json!({"city": null, "country": null, "line1": null, "line2": null, "postal_code": null, "state": null});
        for (key, value) in address {
            if merged.get(key).is_none() {
                return Err(ApiError::invalid(
                    "parameter_unknown",
                    &format!("address.{key}"),
                    format!("Received unknown parameter: address[{key}]"),
                ));
            }
            merged[key] = value.clone();
        }
        customer["address"] = merged;
    }
    if let Some(metadata) = params.metadata() {
        previous.insert("metadata".into(), customer["metadata"].clone());
        merge_metadata(&mut customer["metadata"], metadata);
    }
    Ok(previous)
}

/// Stripe merges metadata keys; an empty value deletes a key.
pub fn merge_metadata(target: &mut Value, update: Map<String, Value>) {
    if !target.is_object() {
        *target = json!({});
    }
    for (key, value) in update {
        if value == "" {
            target.as_object_mut().map(|m| m.remove(&key));
        } else {
            target[key] = value;
        }
    }
}

pub fn create_customer(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    let mut customer = template("customer");
    let id = new_id("cus");
    customer["id"] = json!(id);
    customer["created"] = json!(store.now());
    customer["invoice_prefix"] = json!(id[4..12].to_uppercase());
    customer["metadata"] = json!({});
    apply_customer_params(&mut customer, params)?;
    if let Some(method) = params.str("invoice_settings.default_payment_method") {
        customer["invoice_settings"]["default_payment_method"] = json!(method);
    }
    let customer = store.insert(customer);
    emit(store, "customer.created", &customer, None);
    Ok(customer)
}

pub fn update_customer(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let mut customer = store.find("customer", id, "id")?;
    let mut previous = apply_customer_params(&mut customer, params)?;
    if let Some(method) = params.str("invoice_settings.default_payment_method") {
        if !method.is_empty() {
            let owned = store.get(method).is_some_and(|m| m["object"] == "payment_method" && m["customer"] == id);
            if !owned {
                return Err(ApiError::invalid(
                    "resource_missing",
                    "invoice_settings.default_payment_method",
                    format!(
                        "No such PaymentMethod: '{method}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account."
                    ),
                ));
            }
        }
        previous.insert("invoice_settings".into(), customer["invoice_settings"].clone());
        customer["invoice_settings"]["default_payment_method"] = if method.is_empty() { Value::Null } else { json!(method) };
    }
    let customer = store.insert(customer);
    if !previous.is_empty() {
        emit(store, "customer.updated", &customer, Some(Value::Object(previous)));
    }
    Ok(customer)
}

pub fn create_tax_id(store: &mut Store, customer: &str, params: &Params) -> Result<Value, ApiError> {
    store.find("customer", customer, "customer")?;
    let kind = params.required("type")?.to_owned();
    let value = params.required("value")?.to_owned();
    if !TAX_ID_TYPES.contains(&kind.as_str()) {
        return Err(ApiError::invalid(
            "parameter_invalid_string",
            "type",
            format!("Invalid type: must be one of {}", TAX_ID_TYPES.join(", ")),
        ));
    }
    let Some(country) = check_tax_id(&kind, &value) else {
        return Err(ApiError::invalid("tax_id_invalid", "value", format!("Invalid value for {kind}.")));
    };
    let count = store.all("tax_id", |t| t["customer"] == customer).len();
    if count >= store.max_tax_ids {
        // async-stripe's ApiErrorsCode has no code for this limit; the name follows Stripe's
        // customer_max_payment_methods / customer_max_subscriptions.
        return Err(ApiError::invalid(
            "customer_max_tax_ids",
            "value",
            format!("This customer already has the maximum of {} tax IDs.", store.max_tax_ids),
        ));
    }
    let mut tax_id = template("tax_id");
    tax_id["id"] = json!(new_id("txi"));
    tax_id["created"] = json!(store.now());
    tax_id["customer"] = json!(customer);
    tax_id["owner"] = json!({"customer": customer, "customer_account": null, "type": "customer"});
    tax_id["type"] = json!(kind);
    tax_id["value"] = json!(value);
    tax_id["country"] = json!(country);
    tax_id["verification"] = if matches!(kind.as_str(), "eu_vat" | "gb_vat" | "au_abn") {
        json!({"status": "pending", "verified_address": null, "verified_name": null})
    } else {
        Value::Null
    };
    Ok(store.insert(tax_id))
}

pub fn delete_tax_id(store: &mut Store, customer: &str, id: &str) -> Result<Value, ApiError> {
    store.find("customer", customer, "customer")?;
    match store.get(id) {
        Some(tax_id) if tax_id["object"] == "tax_id" && tax_id["customer"] == customer => {}
        _ => return Err(ApiError::not_found("tax_id", id, "id")),
    }
    store.objects.remove(id);
    store.order.retain(|known| known != id);
    Ok(json!({"id": id, "object": "tax_id", "deleted": true}))
}

#[cfg(test)]
mod tests {
    use super::check_tax_id;

    #[test]
    fn checks_common_tax_id_formats() {
        assert_eq!(check_tax_id("eu_vat", "DE123456789").as_deref(), Some("DE"));
        assert_eq!(check_tax_id("eu_vat", "EL123456789").as_deref(), Some("GR"));
        assert_eq!(check_tax_id("eu_vat", "DE12345"), None);
        assert_eq!(check_tax_id("gb_vat", "GB123456789").as_deref(), Some("GB"));
        assert_eq!(check_tax_id("us_ein", "12-3456789").as_deref(), Some("US"));
        assert_eq!(check_tax_id("us_ein", "12345"), None);
        assert_eq!(check_tax_id("ch_vat", "CHE-123.456.789 MWST").as_deref(), Some("CH"));
        assert_eq!(check_tax_id("no_vat", "123456789MVA").as_deref(), Some("NO"));
        assert_eq!(check_tax_id("au_abn", "12345678912").as_deref(), Some("AU"));
        assert_eq!(check_tax_id("ca_bn", "123456789").as_deref(), Some("CA"));
        assert_eq!(check_tax_id("br_cnpj", "01.234.456/5432-10").as_deref(), Some("BR"));
    }
}
