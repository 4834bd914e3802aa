//! Invoices: a subscription's first (prorated) invoice and each renewal's, finalized at once,
//! paid through their PaymentIntent (confirm by the customer, `POST /v1/invoices/{id}/pay`, or
//! the renewal's off-session charge), and a tiny hosted invoice page.

use serde_json::{Value, json};

use crate::{
    error::ApiError,
    events::emit,
    fixtures::{line_item, template},
    params::Params,
    payments::{self, Outcome},
    store::{Store, new_id},
};

/// What one invoice bills.
pub struct Billing<'a> {
    pub subscription: &'a Value,
    pub amount: i64,
    pub reason: &'a str,
    pub description: String,
    pub period: (i64, i64),
    pub proration: bool,
}

/// Creates, finalizes and (when nothing is due) pays an invoice; returns its id.
pub fn create(store: &mut Store, billing: Billing) -> String {
    let now = store.now();
    let sub = billing.subscription;
    let sub_id = sub["id"].as_str().unwrap_or_default().to_owned();
    let customer_id = sub["customer"].as_str().unwrap_or_default().to_owned();
    let item = &sub["items"]["data"][0];
    let price = &item["price"];
    let currency = sub["currency"].as_str().unwrap_or("usd").to_owned();
    let tax_ids: Vec<Value> = store
        .all("tax_id", |t| t["customer"] == customer_id.as_str())
        .iter()
        .map(|t| json!({"type": t["type"], "value": t["value"]}))
        .collect();
    let (number, customer) = {
        let customer = store.get_mut(&customer_id).cloned().unwrap_or_default();
        let sequence = customer["next_invoice_sequence"].as_i64().unwrap_or(1);
        if let Some(stored) = store.get_mut(&customer_id) {
            stored["next_invoice_sequence"] = json!(sequence + 1);
        }
        (format!("{}-{:04}", customer["invoice_prefix"].as_str().unwrap_or("DOUBLE"), sequence), customer)
    };

    let id = new_id("in");
    let mut line = line_item();
    line["id"] = json!(new_id("il"));
    line["invoice"] = json!(id);
    line["amount"] = json!(billing.amount);
    line["subtotal"] = json!(billing.amount);
    line["currency"] = json!(currency);
    line["description"] = json!(billing.description);
    line["metadata"] = json!({});
    line["taxes"] = json!([]);
    line["period"] = json!({"start": billing.period.0, "end": billing.period.1});
    line["parent"] = json!({
        "invoice_item_details": null,
        "subscription_item_details": {
            "invoice_item": null, "proration": billing.proration, "proration_details": {"credited_items": null},
            "subscription": sub_id, "subscription_item": item["id"],
        },
        "type": "subscription_item_details",
    });
    line["pricing"] = json!({"price_details": {"price": price["id"], "product": price["product"]}, "type": "price_details", "unit_amount_decimal": price["unit_amount_decimal"]});

    let mut invoice = template("invoice");
    invoice["id"] = json!(id);
    invoice["account_name"] = json!("Stripe double");
    invoice["amount_due"] = json!(billing.amount);
    invoice["amount_paid"] = json!(0);
    invoice["amount_remaining"] = json!(billing.amount);
    invoice["auto_advance"] = json!(true);
    invoice["billing_reason"] = json!(billing.reason);
    invoice["created"] = json!(now);
    invoice["currency"] = json!(currency);
    invoice["customer"] = json!(customer_id);
    invoice["customer_email"] = customer["email"].clone();
    invoice["customer_name"] = customer["name"].clone();
    invoice["customer_address"] = customer["address"].clone();
    invoice["customer_tax_ids"] = json!(tax_ids);
    invoice["hosted_invoice_url"] = json!(format!("{}/invoice/{id}", store.base_url));
    invoice["invoice_pdf"] = json!(format!("{}/invoice/{id}?format=pdf", store.base_url));
    invoice["lines"] = json!({"object": "list", "data": [line], "has_more": false, "url": format!("/v1/invoices/{id}/lines")});
    invoice["metadata"] = json!({});
    invoice["parent"] = json!({
        "quote_details": null,
        "subscription_details": {"metadata": sub["metadata"], "subscription": sub_id},
        "type": "subscription_details",
    });
    invoice["period_start"] = json!(if billing.reason == "subscription_cycle" { billing.period.0 } else { now });
    invoice["period_end"] = json!(if billing.reason == "subscription_cycle" { billing.period.0 } else { now });
    invoice["status"] = json!("draft");
    invoice["subscription"] = json!(sub_id);
    for key in ["subtotal", "subtotal_excluding_tax", "total", "total_excluding_tax"] {
        invoice[key] = json!(billing.amount);
    }
    invoice["total_taxes"] = json!([]);
    let invoice = store.insert(invoice);
    emit(store, "invoice.created", &invoice, None);

    // Finalize: number, open, and a PaymentIntent whose client secret the customer confirms.
    let intent = (billing.amount > 0)
        .then(|| payments::new_payment_intent(store, billing.amount, &currency, &customer_id, &format!("Invoice {number}")));
    let Some(invoice) = store.get_mut(&id) else { return id };
    invoice["number"] = json!(number);
    invoice["status"] = json!("open");
    invoice["status_transitions"]["finalized_at"] = json!(now);
    invoice["effective_at"] = json!(now);
    if let Some(intent) = &intent {
        invoice["confirmation_secret"] = json!({"client_secret": intent["client_secret"], "type": "payment_intent"});
    }
    let invoice = invoice.clone();
    if let Some(intent) = &intent {
        store.intent_invoice.insert(intent["id"].as_str().unwrap_or_default().to_owned(), id.clone());
    }
    emit(store, "invoice.finalized", &invoice, None);
    if intent.is_none() {
        mark_paid(store, &id, "");
    }
    id
}

/// The invoice's PaymentIntent id.
pub fn intent_of(store: &Store, invoice: &str) -> Option<String> {
    store.intent_invoice.iter().find(|(_, inv)| inv.as_str() == invoice).map(|(pi, _)| pi.clone())
}

/// Marks an invoice paid by `method` and activates its subscription.
pub fn mark_paid(store: &mut Store, id: &str, method: &str) {
    let now = store.now();
    let Some(invoice) = store.get_mut(id) else { return };
    if invoice["status"] == "paid" {
        return;
    }
    invoice["status"] = json!("paid");
    invoice["amount_paid"] = invoice["amount_due"].clone();
    invoice["amount_remaining"] = json!(0);
    invoice["attempted"] = json!(true);
    invoice["attempt_count"] = json!(invoice["attempt_count"].as_i64().unwrap_or(0) + 1);
    invoice["status_transitions"]["paid_at"] = json!(now);
    invoice["next_payment_attempt"] = Value::Null;
    let invoice = invoice.clone();
    emit(store, "invoice.paid", &invoice, None);
    emit(store, "invoice.payment_succeeded", &invoice, None);

    let Some(sub_id) = invoice["subscription"].as_str() else { return };
    let Some(sub) = store.get_mut(sub_id) else { return };
    let mut previous = serde_json::Map::new();
    if matches!(sub["status"].as_str(), Some("incomplete" | "past_due" | "unpaid")) {
        previous.insert("status".into(), sub["status"].clone());
        sub["status"] = json!("active");
    }
    let saves = sub["payment_settings"]["save_default_payment_method"] == "on_subscription";
    if !method.is_empty() && saves && sub["default_payment_method"] != method {
        previous.insert("default_payment_method".into(), sub["default_payment_method"].clone());
        sub["default_payment_method"] = json!(method);
    }
    if !previous.is_empty() {
        let sub = sub.clone();
        emit(store, "customer.subscription.updated", &sub, Some(Value::Object(previous)));
    }
}

/// Records a failed payment attempt (invoice.payment_failed).
pub fn record_failure(store: &mut Store, id: &str) {
    let Some(invoice) = store.get_mut(id) else { return };
    invoice["attempted"] = json!(true);
    invoice["attempt_count"] = json!(invoice["attempt_count"].as_i64().unwrap_or(0) + 1);
    let invoice = invoice.clone();
    emit(store, "invoice.payment_failed", &invoice, None);
}

/// The payment method an off-session charge of this invoice uses.
pub fn default_method(store: &Store, invoice: &Value) -> Option<String> {
    let from_sub = invoice["subscription"].as_str().and_then(|s| store.get(s)).and_then(|s| s["default_payment_method"].as_str());
    let from_customer =
        invoice["customer"].as_str().and_then(|c| store.get(c)).and_then(|c| c["invoice_settings"]["default_payment_method"].as_str());
    from_sub.or(from_customer).map(str::to_owned)
}

/// Charges an open invoice off-session (renewals, `pay`). Ok(()) when paid.
pub fn charge(store: &mut Store, id: &str, method: &str, forced: Option<bool>) -> Result<(), ApiError> {
    let Some(intent) = intent_of(store, id) else {
        mark_paid(store, id, method);
        return Ok(());
    };
    let outcome = match forced {
        Some(true) => Outcome::Succeeded,
        Some(false) => Outcome::Failed(ApiError::card("card_declined", Some("generic_decline"), "Your card was declined.")),
        None => payments::charge(store, method, true),
    };
    match outcome {
        Outcome::Succeeded => {
            payments::succeed_payment_intent(store, &intent, method);
            Ok(())
        }
        Outcome::Failed(error) => Err(payments::fail_payment_intent(store, &intent, method, error)),
        Outcome::RequiresAction => Err(payments::fail_payment_intent(
            store,
            &intent,
            method,
            ApiError::card(
                "authentication_required",
                Some("authentication_required"),
                "Your card was declined. This transaction requires authentication.",
            ),
        )),
    }
}

/// `POST /v1/invoices/{id}/pay`.
pub fn pay(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let invoice = store.find("invoice", id, "invoice")?;
    if invoice["status"] != "open" {
        return Err(ApiError::with_code(
            axum::http::StatusCode::BAD_REQUEST,
            "invoice_not_editable",
            None,
            format!("Invoice is already {}.", invoice["status"].as_str().unwrap_or_default()),
        ));
    }
    let method = match params.str("payment_method") {
        Some(method) => {
            store.find("payment_method", method, "payment_method")?;
            method.to_owned()
        }
        None => default_method(store, &invoice).ok_or_else(|| {
            ApiError::request(
                "This customer has no attached payment source or default payment method. Please consider adding a default payment method.",
            )
        })?,
    };
    charge(store, id, &method, None)?;
    store.find("invoice", id, "invoice")
}

/// `POST /v1/invoices/{id}/void`: an open invoice can no longer be paid; its payment intent is canceled.
pub fn void(store: &mut Store, id: &str) -> Result<Value, ApiError> {
    let invoice = store.find("invoice", id, "invoice")?;
    if invoice["status"] != "open" {
        return Err(ApiError::with_code(
            axum::http::StatusCode::BAD_REQUEST,
            "invoice_not_editable",
            None,
            format!("You can only void open invoices; this one is {}.", invoice["status"].as_str().unwrap_or_default()),
        ));
    }
    let at = store.now();
    if let Some(intent) = intent_of(store, id)
        && let Some(intent) = store.get_mut(&intent)
    {
        intent["status"] = json!("canceled");
        intent["canceled_at"] = json!(at);
        intent["cancellation_reason"] = json!("void_invoice");
    }
    let Some(invoice) = store.get_mut(id) else { return Err(ApiError::not_found("invoice", id, "invoice")) };
    invoice["status"] = json!("void");
    invoice["status_transitions"]["voided_at"] = json!(at);
    let invoice = invoice.clone();
    emit(store, "invoice.voided", &invoice, None);
    Ok(invoice)
}

/// The hosted invoice page (`hosted_invoice_url`).
pub fn page(store: &Store, id: &str) -> Option<String> {
    let invoice = store.get(id).filter(|o| o["object"] == "invoice")?;
    let dollars = |cents: &Value| format!("${:.2}", cents.as_i64().unwrap_or(0) as f64 / 100.0);
    let escape = |text: &Value| text.as_str().unwrap_or("").replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let lines: String = invoice["lines"]["data"]
        .as_array()
        .map(|lines| {
            lines.iter().map(|l| format!("<tr><td>{}</td><td>{}</td></tr>", escape(&l["description"]), dollars(&l["amount"]))).collect()
        })
        .unwrap_or_default();
    Some(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Invoice {number}</title></head><body>\
         <h1>Invoice {number}</h1><p>Status: <strong>{status}</strong></p><p>Billed to {name} ({email})</p>\
         <table><tr><th>Description</th><th>Amount</th></tr>{lines}</table>\
         <p>Amount due: {due}</p><p>Amount paid: {paid}</p></body></html>",
        number = escape(&invoice["number"]),
        status = escape(&invoice["status"]),
        name = escape(&invoice["customer_name"]),
        email = escape(&invoice["customer_email"]),
        due = dollars(&invoice["amount_due"]),
        paid = dollars(&invoice["amount_paid"]),
    ))
}
