//! Products and prices (recurring monthly prices in the channel's currency).

use serde_json::{Value, json};

use crate::{
    customers::merge_metadata,
    error::ApiError,
    fixtures::template,
    params::Params,
    store::{Store, new_id},
};

pub fn create_product(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    let name = params.required("name")?.to_owned();
    let mut product = template("product");
    product["id"] = json!(params.str("id").map(str::to_owned).unwrap_or_else(|| new_id("prod")));
    product["name"] = json!(name);
    product["description"] = params.str("description").map_or(Value::Null, |d| json!(d));
    product["created"] = json!(store.now());
    product["updated"] = json!(store.now());
    product["type"] = json!("service");
    product["metadata"] = json!({});
    if let Some(metadata) = params.metadata() {
        merge_metadata(&mut product["metadata"], metadata);
    }
    Ok(store.insert(product))
}

pub fn update_product(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let mut product = store.find("product", id, "id")?;
    if let Some(name) = params.str("name") {
        product["name"] = json!(name);
    }
    if let Some(active) = params.bool("active")? {
        product["active"] = json!(active);
    }
    if let Some(metadata) = params.metadata() {
        merge_metadata(&mut product["metadata"], metadata);
    }
    product["updated"] = json!(store.now());
    Ok(store.insert(product))
}

pub fn create_price(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    let product = params.required("product")?.to_owned();
    store.find("product", &product, "product")?;
    let currency = params.required("currency")?.to_lowercase();
    let amount = params.int("unit_amount")?.ok_or_else(|| ApiError::missing("unit_amount"))?;
    if amount < 0 {
        return Err(ApiError::invalid("parameter_invalid_integer", "unit_amount", "This value must be greater than or equal to 0."));
    }
    if let Some(key) = params.str("lookup_key")
        && !store.all("price", |p| p["lookup_key"] == key).is_empty()
    {
        return Err(ApiError::invalid(
            "resource_already_exists",
            "lookup_key",
            format!(
                "A price (`{}`) already uses that lookup key.",
                store.all("price", |p| p["lookup_key"] == key)[0]["id"].as_str().unwrap_or_default()
            ),
        ));
    }
    let mut price = template("price");
    price["id"] = json!(new_id("price"));
    price["product"] = json!(product);
    price["currency"] = json!(currency);
    price["unit_amount"] = json!(amount);
    price["unit_amount_decimal"] = json!(amount.to_string());
    price["created"] = json!(store.now());
    price["lookup_key"] = params.str("lookup_key").map_or(Value::Null, |k| json!(k));
    price["nickname"] = params.str("nickname").map_or(Value::Null, |k| json!(k));
    price["metadata"] = json!({});
    if let Some(metadata) = params.metadata() {
        merge_metadata(&mut price["metadata"], metadata);
    }
    match params.str("recurring.interval") {
        Some(interval @ ("day" | "week" | "month" | "year")) => {
            let count = params.int("recurring.interval_count")?.unwrap_or(1);
            price["recurring"] =
                json!({"interval": interval, "interval_count": count, "meter": null, "trial_period_days": null, "usage_type": "licensed"});
            price["type"] = json!("recurring");
        }
        Some(other) => {
            return Err(ApiError::invalid(
                "parameter_invalid_string",
                "recurring.interval",
                format!("Invalid recurring[interval]: must be one of day, week, month, or year (got {other})"),
            ));
        }
        None => {
            price["recurring"] = Value::Null;
            price["type"] = json!("one_time");
        }
    }
    Ok(store.insert(price))
}

pub fn update_price(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let mut price = store.find("price", id, "price")?;
    if let Some(active) = params.bool("active")? {
        price["active"] = json!(active);
    }
    if let Some(key) = params.str("lookup_key") {
        price["lookup_key"] = if key.is_empty() { Value::Null } else { json!(key) };
    }
    if let Some(nickname) = params.str("nickname") {
        price["nickname"] = json!(nickname);
    }
    if let Some(metadata) = params.metadata() {
        merge_metadata(&mut price["metadata"], metadata);
    }
    Ok(store.insert(price))
}

/// `GET /v1/prices?product=&active=&lookup_keys[]=`.
pub fn list_prices(store: &Store, params: &Params) -> Result<Vec<Value>, ApiError> {
    let active = params.bool("active")?;
    let product = params.str("product");
    let keys: Vec<String> = match params.get("lookup_keys") {
        Some(Value::Array(keys)) => keys.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    Ok(store.all("price", |p| {
        active.is_none_or(|a| p["active"] == a)
            && product.is_none_or(|id| p["product"] == id)
            && (keys.is_empty() || keys.iter().any(|k| p["lookup_key"] == k.as_str()))
    }))
}
