//! Subscriptions: created `incomplete` with a prorated first invoice up to the billing cycle
//! anchor, activated when that invoice is paid; updates (cancel at period end, default payment
//! method, price change without proration), deletion, and the clock's renewals and expiries.

use chrono::{Datelike, TimeZone, Timelike, Utc};
use serde_json::{Map, Value, json};

use crate::{
    customers::merge_metadata,
    error::ApiError,
    events::emit,
    fixtures::template,
    invoices::{self, Billing},
    params::Params,
    store::{Store, new_id},
};

/// Unpaid first invoices expire the subscription after 23 hours, as Stripe does.
pub const INCOMPLETE_EXPIRES_AFTER: i64 = 23 * 3600;

/// `time` moved by `months` calendar months, the day clamped to the month's length.
pub fn add_months(time: i64, months: i32) -> i64 {
    let Some(start) = Utc.timestamp_opt(time, 0).single() else { return time };
    let total = start.year() * 12 + start.month0() as i32 + months;
    let (year, month) = (total.div_euclid(12), total.rem_euclid(12) as u32 + 1);
    let mut day = start.day();
    loop {
        if let Some(date) = Utc.with_ymd_and_hms(year, month, day, start.hour(), start.minute(), start.second()).single() {
            return date.timestamp();
        }
        day -= 1;
    }
}

/// The next `day` of a month at 00:00 UTC strictly after `now` (day 1 → the 1st of next month).
pub fn next_day_of_month(now: i64, day: u32) -> i64 {
    let Some(today) = Utc.timestamp_opt(now, 0).single() else { return now };
    let mut year = today.year();
    let mut month = today.month();
    loop {
        let last_day = (28..=31).rev().find(|d| Utc.with_ymd_and_hms(year, month, *d, 0, 0, 0).single().is_some()).unwrap_or(28);
        if let Some(candidate) = Utc.with_ymd_and_hms(year, month, day.min(last_day), 0, 0, 0).single()
            && candidate.timestamp() > now
        {
            return candidate.timestamp();
        }
        (year, month) = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
    }
}

fn plan_of(price: &Value) -> Value {
    json!({
        "active": price["active"], "amount": price["unit_amount"], "amount_decimal": price["unit_amount_decimal"],
        "billing_scheme": "per_unit", "created": price["created"], "currency": price["currency"], "id": price["id"],
        "interval": price["recurring"]["interval"], "interval_count": price["recurring"]["interval_count"], "livemode": false,
        "metadata": {}, "meter": null, "nickname": price["nickname"], "object": "plan", "product": price["product"],
        "tiers_mode": null, "transform_usage": null, "trial_period_days": null, "usage_type": "licensed",
    })
}

fn recurring_price(store: &Store, id: &str, param: &str) -> Result<Value, ApiError> {
    let price = store.find("price", id, param)?;
    if price["active"] != true {
        return Err(ApiError::invalid("price_inactive", param, "The price specified is inactive. This field only accepts active prices."));
    }
    if price["type"] != "recurring" {
        return Err(ApiError::invalid(
            "parameter_invalid_string",
            param,
            "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
        ));
    }
    Ok(price)
}

fn check_owned_method(store: &Store, customer: &str, method: &str, param: &str) -> Result<(), ApiError> {
    match store.get(method) {
        Some(m) if m["object"] == "payment_method" && m["customer"] == customer => Ok(()),
        Some(m) if m["object"] == "payment_method" => Err(ApiError::invalid(
            "resource_missing",
            param,
            format!(
                "The customer does not have a payment method with the ID {method}. The payment method must be attached to the customer."
            ),
        )),
        _ => Err(ApiError::not_found("PaymentMethod", method, param)),
    }
}

fn day_label(time: i64) -> String {
    Utc.timestamp_opt(time, 0).single().map(|t| t.format("%-d %b %Y").to_string()).unwrap_or_default()
}

/// `POST /v1/subscriptions`.
pub fn create(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    let customer_id = params.required("customer")?.to_owned();
    let customer = store.find("customer", &customer_id, "customer")?;
    let price_id = params.str("items.0.price").ok_or_else(|| ApiError::missing("items.0.price"))?.to_owned();
    let price = recurring_price(store, &price_id, "items.0.price")?;
    let quantity = params.int("items.0.quantity")?.unwrap_or(1).max(1);
    let now = store.now();

    let day_of_month = params.int("billing_cycle_anchor_config.day_of_month")?;
    let anchor = match (params.int("billing_cycle_anchor")?, day_of_month) {
        (Some(anchor), _) => Some(anchor),
        (None, Some(day)) if (1..=31).contains(&day) => Some(next_day_of_month(now, day as u32)),
        (None, Some(_)) => {
            return Err(ApiError::invalid(
                "parameter_invalid_integer",
                "billing_cycle_anchor_config.day_of_month",
                "day_of_month must be between 1 and 31.",
            ));
        }
        (None, None) => None,
    };
    if let Some(anchor) = anchor
        && anchor <= now
    {
        return Err(ApiError::invalid("parameter_invalid_integer", "billing_cycle_anchor", "billing_cycle_anchor cannot be in the past."));
    }
    let proration = params.str("proration_behavior").unwrap_or("create_prorations");
    if !matches!(proration, "create_prorations" | "none" | "always_invoice") {
        return Err(ApiError::invalid("parameter_invalid_string", "proration_behavior", "Invalid proration_behavior."));
    }
    let behavior = params.str("payment_behavior").unwrap_or("allow_incomplete");
    if !matches!(behavior, "default_incomplete" | "allow_incomplete" | "error_if_incomplete" | "pending_if_incomplete") {
        return Err(ApiError::invalid("parameter_invalid_string", "payment_behavior", "Invalid payment_behavior."));
    }
    let default_method = params.str("default_payment_method").map(str::to_owned);
    if let Some(method) = &default_method {
        check_owned_method(store, &customer_id, method, "default_payment_method")?;
    }

    let unit_amount = price["unit_amount"].as_i64().unwrap_or(0) * quantity;
    let period_end = anchor.unwrap_or_else(|| add_months(now, 1));
    let (amount, description, prorated) = match anchor {
        Some(_) if proration == "none" => {
            (0, format!("Remaining time on {quantity} × {} after {}", product_name(store, &price), day_label(now)), true)
        }
        Some(anchor) => {
            let full = (anchor - add_months(anchor, -1)) as f64;
            let share = (anchor - now) as f64 / full;
            (
                (unit_amount as f64 * share).round() as i64,
                format!("Remaining time on {quantity} × {} after {}", product_name(store, &price), day_label(now)),
                true,
            )
        }
        None => {
            (unit_amount, format!("{quantity} × {} (at ${:.2} / month)", product_name(store, &price), unit_amount as f64 / 100.0), false)
        }
    };

    let id = new_id("sub");
    let mut item = template("subscription_item");
    item["id"] = json!(new_id("si"));
    item["created"] = json!(now);
    item["current_period_start"] = json!(now);
    item["current_period_end"] = json!(period_end);
    item["metadata"] = json!({});
    item["plan"] = plan_of(&price);
    item["price"] = price.clone();
    item["quantity"] = json!(quantity);
    item["subscription"] = json!(id);

    let mut sub = template("subscription");
    sub["id"] = json!(id);
    sub["customer"] = json!(customer_id);
    sub["created"] = json!(now);
    sub["start_date"] = json!(now);
    sub["billing_cycle_anchor"] = json!(anchor.unwrap_or(now));
    if let Some(day) = day_of_month {
        sub["billing_cycle_anchor_config"] = json!({"day_of_month": day, "hour": null, "minute": null, "month": null, "second": null});
    }
    sub["cancel_at_period_end"] = json!(false);
    sub["currency"] = price["currency"].clone();
    sub["default_payment_method"] = json!(default_method);
    sub["description"] = params.str("description").map_or(Value::Null, |d| json!(d));
    sub["metadata"] = json!({});
    if let Some(metadata) = params.metadata() {
        merge_metadata(&mut sub["metadata"], metadata);
    }
    sub["payment_settings"]["save_default_payment_method"] =
        json!(params.str("payment_settings.save_default_payment_method").unwrap_or("off"));
    sub["items"] = json!({"object": "list", "data": [item], "has_more": false, "total_count": 1, "url": format!("/v1/subscription_items?subscription={id}")});
    sub["status"] = json!("incomplete");
    sub["latest_invoice"] = Value::Null;
    let sub = store.insert(sub);

    let reason = "subscription_create";
    let invoice = invoices::create(
        store,
        Billing { subscription: &sub, amount, reason, description, period: (now, period_end), proration: prorated },
    );
    if let Some(stored) = store.get_mut(&id) {
        stored["latest_invoice"] = json!(invoice);
    }
    let created = store.find("subscription", &id, "id")?;
    emit(store, "customer.subscription.created", &created, None);

    // Without default_incomplete Stripe charges a known payment method at once.
    let method = default_method.or_else(|| customer["invoice_settings"]["default_payment_method"].as_str().map(str::to_owned));
    if behavior != "default_incomplete"
        && let Some(method) = method
        && store.get(&invoice).is_some_and(|i| i["status"] == "open")
        && let Err(error) = invoices::charge(store, &invoice, &method, None)
        && behavior == "error_if_incomplete"
    {
        return Err(error);
    }
    let sub = store.find("subscription", &id, "id")?;
    Ok(store.render(&sub, &params.expand()))
}

fn product_name(store: &Store, price: &Value) -> String {
    price["product"].as_str().and_then(|p| store.get(p)).and_then(|p| p["name"].as_str()).unwrap_or("Subscription").to_owned()
}

/// `POST /v1/subscriptions/{id}`.
pub fn update(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let mut sub = store.find("subscription", id, "id")?;
    let customer = sub["customer"].as_str().unwrap_or_default().to_owned();
    if matches!(sub["status"].as_str(), Some("canceled" | "incomplete_expired")) {
        return Err(ApiError::request(format!(
            "A canceled subscription can only update its cancellation_details and metadata. (subscription {id} is {})",
            sub["status"].as_str().unwrap_or_default()
        )));
    }
    let now = store.now();
    let mut previous = Map::new();
    if let Some(cancel) = params.bool("cancel_at_period_end")? {
        if sub["cancel_at_period_end"] != cancel {
            for key in ["cancel_at_period_end", "cancel_at", "canceled_at", "cancellation_details"] {
                previous.insert(key.into(), sub[key].clone());
            }
            let period_end = sub["items"]["data"][0]["current_period_end"].clone();
            sub["cancel_at_period_end"] = json!(cancel);
            sub["cancel_at"] = if cancel { period_end } else { Value::Null };
            sub["canceled_at"] = if cancel { json!(now) } else { Value::Null };
            sub["cancellation_details"]["reason"] = if cancel { json!("cancellation_requested") } else { Value::Null };
        }
    }
    if let Some(method) = params.str("default_payment_method") {
        if !method.is_empty() {
            check_owned_method(store, &customer, method, "default_payment_method")?;
        }
        previous.insert("default_payment_method".into(), sub["default_payment_method"].clone());
        sub["default_payment_method"] = if method.is_empty() { Value::Null } else { json!(method) };
    }
    if let Some(metadata) = params.metadata() {
        previous.insert("metadata".into(), sub["metadata"].clone());
        merge_metadata(&mut sub["metadata"], metadata);
    }
    if let Some(price_id) = params.str("items.0.price") {
        // One item per subscription: the price is swapped in place; prorations are not billed.
        if let Some(item_id) = params.str("items.0.id")
            && sub["items"]["data"][0]["id"] != item_id
        {
            return Err(ApiError::not_found("subscription_item", item_id, "items[0][id]"));
        }
        let price = recurring_price(store, price_id, "items.0.price")?;
        previous.insert("items".into(), sub["items"].clone());
        previous.insert("plan".into(), sub["items"]["data"][0]["plan"].clone());
        sub["items"]["data"][0]["price"] = price.clone();
        sub["items"]["data"][0]["plan"] = plan_of(&price);
        if let Some(quantity) = params.int("items.0.quantity")? {
            sub["items"]["data"][0]["quantity"] = json!(quantity);
        }
    }
    let sub = store.insert(sub);
    if !previous.is_empty() {
        emit(store, "customer.subscription.updated", &sub, Some(Value::Object(previous)));
    }
    Ok(store.render(&sub, &params.expand()))
}

/// `DELETE /v1/subscriptions/{id}`: canceled now.
pub fn cancel(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let sub = store.find("subscription", id, "id")?;
    if matches!(sub["status"].as_str(), Some("canceled" | "incomplete_expired")) {
        return Err(ApiError::not_found("subscription", id, "id"));
    }
    let now = store.now();
    end(store, id, now, "canceled", "cancellation_requested");
    let sub = store.find("subscription", id, "id")?;
    Ok(store.render(&sub, &params.expand()))
}

fn end(store: &mut Store, id: &str, at: i64, status: &str, reason: &str) {
    let Some(sub) = store.get_mut(id) else { return };
    let previous = json!({"status": sub["status"]});
    sub["status"] = json!(status);
    sub["ended_at"] = json!(at);
    if sub["canceled_at"].is_null() {
        sub["canceled_at"] = json!(at);
    }
    if sub["cancellation_details"]["reason"].is_null() && status == "canceled" {
        sub["cancellation_details"]["reason"] = json!(reason);
    }
    let sub = sub.clone();
    emit(store, "customer.subscription.deleted", &sub, Some(previous));
}

/// `GET /v1/subscriptions?customer=&price=&status=`; canceled ones only with status=canceled|all.
pub fn list(store: &Store, params: &Params) -> Vec<Value> {
    let customer = params.str("customer");
    let price = params.str("price");
    let status = params.str("status");
    store.all("subscription", |s| {
        customer.is_none_or(|c| s["customer"] == c)
            && price.is_none_or(|p| s["items"]["data"][0]["price"]["id"] == p)
            && match status {
                Some("all") => true,
                Some(status) => s["status"] == status,
                None => !matches!(s["status"].as_str(), Some("canceled" | "incomplete_expired")),
            }
    })
}

/// The next thing the clock makes happen to a subscription, and when.
pub fn next_deadline(sub: &Value) -> Option<i64> {
    match sub["status"].as_str()? {
        "incomplete" => Some(sub["created"].as_i64()? + INCOMPLETE_EXPIRES_AFTER),
        "active" | "past_due" | "trialing" => sub["items"]["data"][0]["current_period_end"].as_i64(),
        _ => None,
    }
}

/// What happens when the clock reaches a subscription's deadline (the clock already shows `at`).
pub fn on_deadline(store: &mut Store, id: &str, at: i64) {
    let Some(sub) = store.get(id).cloned() else { return };
    if sub["status"] == "incomplete" {
        expire(store, &sub, at);
    } else if sub["cancel_at_period_end"] == true {
        end(store, id, at, "canceled", "cancellation_requested");
    } else {
        renew(store, &sub, at);
    }
}

fn expire(store: &mut Store, sub: &Value, at: i64) {
    let id = sub["id"].as_str().unwrap_or_default();
    if let Some(invoice_id) = sub["latest_invoice"].as_str() {
        if let Some(intent) = invoices::intent_of(store, invoice_id)
            && let Some(intent) = store.get_mut(&intent)
        {
            intent["status"] = json!("canceled");
            intent["canceled_at"] = json!(at);
            intent["cancellation_reason"] = json!("automatic");
        }
        if let Some(invoice) = store.get_mut(invoice_id) {
            invoice["status"] = json!("void");
            invoice["status_transitions"]["voided_at"] = json!(at);
        }
    }
    end(store, id, at, "incomplete_expired", "payment_failed");
}

fn renew(store: &mut Store, sub: &Value, at: i64) {
    let id = sub["id"].as_str().unwrap_or_default().to_owned();
    let anchor = sub["billing_cycle_anchor"].as_i64().unwrap_or(at);
    let old_end = sub["items"]["data"][0]["current_period_end"].as_i64().unwrap_or(at);
    let new_end = (1..).map(|n| add_months(anchor, n)).find(|end| *end > old_end).unwrap_or(old_end);
    let price = sub["items"]["data"][0]["price"].clone();
    let quantity = sub["items"]["data"][0]["quantity"].as_i64().unwrap_or(1);
    let amount = price["unit_amount"].as_i64().unwrap_or(0) * quantity;
    let description = format!("{quantity} × {} (at ${:.2} / month)", product_name(store, &price), amount as f64 / 100.0);

    let invoice = invoices::create(
        store,
        Billing { subscription: sub, amount, reason: "subscription_cycle", description, period: (old_end, new_end), proration: false },
    );
    let Some(stored) = store.get_mut(&id) else { return };
    let previous = json!({"items": stored["items"].clone(), "latest_invoice": stored["latest_invoice"].clone()});
    stored["items"]["data"][0]["current_period_start"] = json!(old_end);
    stored["items"]["data"][0]["current_period_end"] = json!(new_end);
    stored["latest_invoice"] = json!(invoice);
    let updated = stored.clone();
    emit(store, "customer.subscription.updated", &updated, Some(previous));

    if store.get(&invoice).is_some_and(|i| i["status"] == "paid") {
        return;
    }
    let forced = store.next_renewal.remove(&id);
    let method = store.get(&invoice).and_then(|i| invoices::default_method(store, i));
    let paid = match (method, forced) {
        (Some(method), forced) => invoices::charge(store, &invoice, &method, forced).is_ok(),
        (None, Some(true)) => {
            invoices::mark_paid(store, &invoice, "");
            true
        }
        (None, _) => {
            invoices::record_failure(store, &invoice);
            false
        }
    };
    if !paid
        && let Some(stored) = store.get_mut(&id)
        && stored["status"] == "active"
    {
        stored["status"] = json!("past_due");
        let updated = stored.clone();
        emit(store, "customer.subscription.updated", &updated, Some(json!({"status": "active"})));
    }
}

/// Moves the clock to `target`, applying every renewal, cancellation at period end and expiry
/// due on the way, each at its own time.
pub fn advance_clock_to(store: &mut Store, target: i64) -> Result<(), ApiError> {
    let wall = Utc::now().timestamp();
    if target < store.now() {
        return Err(ApiError::request("The clock only moves forward."));
    }
    loop {
        let due = store
            .all("subscription", |_| true)
            .iter()
            .filter_map(|s| Some((next_deadline(s)?, s["id"].as_str()?.to_owned())))
            .filter(|(at, _)| *at <= target)
            .min();
        let Some((at, id)) = due else { break };
        store.clock_offset = at.max(store.now()) - wall;
        on_deadline(store, &id, at);
    }
    store.clock_offset = target - wall;
    Ok(())
}
