//! PaymentMethods, PaymentIntents and SetupIntents, and Stripe's test cards: which succeed, which
//! decline (with Stripe's codes and messages), which ask for 3D Secure, which attach but fail
//! every later charge.

use chrono::Datelike;
use serde_json::{Value, json};

use crate::{
    error::ApiError,
    events::emit,
    fixtures::template,
    invoices,
    params::Params,
    store::{Store, new_id, secret_suffix},
};

/// How a card behaves (the test card it was made from).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Card {
    Succeeds,
    /// Declined on every charge and setup: (code, decline_code, message).
    Declines(&'static str, &'static str, &'static str),
    /// Sets up fine but every charge fails as insufficient funds (4000000000009995).
    InsufficientFunds,
    /// 3D Secure on-session; off-session charges succeed once it was authenticated (4000002500003155).
    AuthenticationRequired,
    /// Attaches fine, every charge fails (4000000000000341).
    ChargeFails,
}

const DECLINED: &str = "Your card was declined.";

/// Stripe's test card numbers → (brand, behaviour).
fn card_for_number(number: &str) -> Result<(&'static str, Card), ApiError> {
    let digits: String = number.chars().filter(|c| !c.is_whitespace()).collect();
    let card = match digits.as_str() {
        "4242424242424242" | "4000056655665556" | "5555555555554444" | "378282246310005" => Card::Succeeds,
        "4000000000000002" => Card::Declines("card_declined", "generic_decline", DECLINED),
        "4000000000009995" => Card::InsufficientFunds,
        "4000000000009987" => Card::Declines("card_declined", "lost_card", DECLINED),
        "4000000000000069" => Card::Declines("expired_card", "expired_card", "Your card has expired."),
        "4000000000000127" => Card::Declines("incorrect_cvc", "incorrect_cvc", "Your card's security code is incorrect."),
        "4000002500003155" | "4000002760003184" | "4000000000003220" => Card::AuthenticationRequired,
        "4000000000000341" => Card::ChargeFails,
        _ if !luhn(&digits) => {
            return Err(ApiError::card("incorrect_number", None, "Your card number is incorrect.").with("param", json!("number")));
        }
        _ => Card::Declines(
            "card_declined",
            "test_mode_live_card",
            "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
        ),
    };
    let brand = match digits.chars().next() {
        Some('5') => "mastercard",
        Some('3') => "amex",
        _ => "visa",
    };
    Ok((brand, card))
}

/// Stripe's test PaymentMethod ids → card numbers.
fn test_payment_method(id: &str) -> Option<&'static str> {
    Some(match id {
        "pm_card_visa" => "4242424242424242",
        "pm_card_mastercard" => "5555555555554444",
        "pm_card_chargeDeclined" => "4000000000000002",
        "pm_card_chargeDeclinedInsufficientFunds" => "4000000000009995",
        "pm_card_chargeDeclinedExpiredCard" => "4000000000000069",
        "pm_card_authenticationRequired" | "pm_card_authenticationRequiredOnSetup" | "pm_card_threeDSecure2Required" => "4000002500003155",
        "pm_card_chargeCustomerFail" => "4000000000000341",
        _ => return None,
    })
}

fn luhn(digits: &str) -> bool {
    if digits.len() < 12 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let sum: u32 = digits
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| if i % 2 == 1 { if d * 2 > 9 { d * 2 - 9 } else { d * 2 } } else { d })
        .sum();
    sum % 10 == 0
}

fn create_card_payment_method(store: &mut Store, number: &str, data: Option<&Value>) -> Result<String, ApiError> {
    let (brand, card) = card_for_number(number)?;
    let digits: String = number.chars().filter(|c| c.is_ascii_digit()).collect();
    let year = chrono::DateTime::from_timestamp(store.now(), 0).map(|t| t.year()).unwrap_or(2030);
    let exp_month = data.and_then(|d| d["card"]["exp_month"].as_str()).and_then(|m| m.parse::<i64>().ok()).unwrap_or(12);
    let exp_year = data
        .and_then(|d| d["card"]["exp_year"].as_str())
        .and_then(|y| y.parse::<i64>().ok())
        .map(|y| if y < 100 { 2000 + y } else { y })
        .unwrap_or(i64::from(year) + 3);
    let mut method = template("payment_method");
    let id = new_id("pm");
    method["id"] = json!(id);
    method["created"] = json!(store.now());
    method["customer"] = Value::Null;
    method["card"]["brand"] = json!(brand);
    method["card"]["display_brand"] = json!(brand);
    method["card"]["last4"] = json!(&digits[digits.len().saturating_sub(4)..]);
    method["card"]["exp_month"] = json!(exp_month);
    method["card"]["exp_year"] = json!(exp_year);
    method["card"]["fingerprint"] = json!(&new_id("fp")[3..19]);
    method["card"]["networks"] = json!({"available": [brand], "preferred": null});
    if let Some(details) = data.and_then(|d| d.get("billing_details")).and_then(Value::as_object) {
        for (key, value) in details {
            if key == "address" {
                if let Some(address) = value.as_object() {
                    for (part, text) in address {
                        method["billing_details"]["address"][part] = text.clone();
                    }
                }
            } else {
                method["billing_details"][key] = value.clone();
            }
        }
    }
    store.cards.insert(id.clone(), card);
    store.insert(method);
    Ok(id)
}

/// The payment method a confirm names: `payment_method` (a test id such as pm_card_visa or an
/// existing pm_…) or `payment_method_data[type]=card&payment_method_data[card][number]=…`.
pub fn resolve_payment_method(store: &mut Store, params: &Params, fallback: Option<&str>) -> Result<String, ApiError> {
    if let Some(id) = params.str("payment_method") {
        if let Some(number) = test_payment_method(id) {
            return create_card_payment_method(store, number, None);
        }
        store.find("payment_method", id, "payment_method")?;
        return Ok(id.to_owned());
    }
    if let Some(data) = params.get("payment_method_data") {
        let number = data["card"]["number"].as_str().ok_or_else(|| ApiError::missing("payment_method_data.card.number"))?;
        return create_card_payment_method(store, number, Some(data));
    }
    match fallback {
        Some(id) => Ok(id.to_owned()),
        None => Err(ApiError::with_code(
            axum::http::StatusCode::BAD_REQUEST,
            "payment_intent_unexpected_state",
            None,
            "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with a payment method, pass `payment_method` or `payment_method_data`.",
        )),
    }
}

/// Attaches a payment method to a customer (payment_method.attached), once.
pub fn attach(store: &mut Store, method_id: &str, customer: &str) {
    let Some(method) = store.get_mut(method_id) else { return };
    if method["customer"] == customer {
        return;
    }
    method["customer"] = json!(customer);
    let method = method.clone();
    emit(store, "payment_method.attached", &method, None);
}

pub enum Outcome {
    Succeeded,
    RequiresAction,
    Failed(ApiError),
}

/// What charging `method` does: on-session (a confirm by the customer) or off-session (renewal, pay).
pub fn charge(store: &Store, method: &str, off_session: bool) -> Outcome {
    let declined = |code, decline, message| Outcome::Failed(ApiError::card(code, Some(decline), message));
    match store.cards.get(method).cloned().unwrap_or(Card::Succeeds) {
        Card::Succeeds => Outcome::Succeeded,
        Card::Declines(code, decline, message) => declined(code, decline, message),
        Card::InsufficientFunds => declined("card_declined", "insufficient_funds", "Your card has insufficient funds."),
        Card::ChargeFails => declined("card_declined", "generic_decline", DECLINED),
        Card::AuthenticationRequired if !off_session => Outcome::RequiresAction,
        Card::AuthenticationRequired if store.authenticated.contains(method) => Outcome::Succeeded,
        Card::AuthenticationRequired => declined(
            "authentication_required",
            "authentication_required",
            "Your card was declined. This transaction requires authentication.",
        ),
    }
}

/// What setting up `method` for later use does (SetupIntent confirm).
fn setup(store: &Store, method: &str) -> Outcome {
    match store.cards.get(method).cloned().unwrap_or(Card::Succeeds) {
        Card::Declines(code, decline, message) => Outcome::Failed(ApiError::card(code, Some(decline), message)),
        Card::AuthenticationRequired => Outcome::RequiresAction,
        _ => Outcome::Succeeded,
    }
}

pub fn new_payment_intent(store: &mut Store, amount: i64, currency: &str, customer: &str, description: &str) -> Value {
    let mut intent = template("payment_intent");
    let id = new_id("pi");
    intent["id"] = json!(id);
    intent["client_secret"] = json!(format!("{id}_secret_{}", secret_suffix()));
    intent["amount"] = json!(amount);
    intent["currency"] = json!(currency);
    intent["customer"] = json!(customer);
    intent["description"] = json!(description);
    intent["created"] = json!(store.now());
    intent["setup_future_usage"] = json!("off_session");
    intent["payment_method_types"] = json!(["card"]);
    intent["status"] = json!("requires_payment_method");
    store.insert(intent)
}

fn challenge_action(store: &Store, intent_id: &str, client_secret: &str, return_url: Option<&str>) -> Value {
    json!({
        "type": "redirect_to_url",
        "redirect_to_url": {
            "url": format!("{}/3ds/{intent_id}?client_secret={client_secret}", store.base_url),
            "return_url": return_url,
        }
    })
}

/// Stripe's refusal to confirm an intent (`payment_intent` or `setup_intent`, named `label` in the
/// message) that is past confirmation.
fn confirmable(intent: &Value, object: &str, label: &str) -> Result<(), ApiError> {
    let status = intent["status"].as_str().unwrap_or_default();
    if matches!(status, "requires_payment_method" | "requires_confirmation") {
        return Ok(());
    }
    Err(ApiError::with_code(
        axum::http::StatusCode::BAD_REQUEST,
        &format!("{object}_unexpected_state"),
        None,
        format!("You cannot confirm this {label} because it has a status of {status}."),
    )
    .with(object, intent.clone()))
}

/// `POST /v1/payment_intents/{id}/confirm`.
pub fn confirm_payment_intent(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let intent = store.find("payment_intent", id, "intent")?;
    confirmable(&intent, "payment_intent", "PaymentIntent")?;
    let method = resolve_payment_method(store, params, intent["payment_method"].as_str())?;
    match charge(store, &method, params.bool("off_session")?.unwrap_or(false)) {
        Outcome::Succeeded => Ok(succeed_payment_intent(store, id, &method)),
        Outcome::RequiresAction => {
            let secret = intent["client_secret"].as_str().unwrap_or_default().to_owned();
            let action = challenge_action(store, id, &secret, params.str("return_url"));
            let intent = store.get_mut(id).expect("found above");
            intent["status"] = json!("requires_action");
            intent["payment_method"] = json!(method);
            intent["next_action"] = action;
            intent["last_payment_error"] = Value::Null;
            let intent = intent.clone();
            emit(store, "payment_intent.requires_action", &intent, None);
            Ok(intent)
        }
        Outcome::Failed(error) => Err(fail_payment_intent(store, id, &method, error)),
    }
}

/// Marks a PaymentIntent succeeded with `method` and pays its invoice.
pub fn succeed_payment_intent(store: &mut Store, id: &str, method: &str) -> Value {
    let Some(intent) = store.get_mut(id) else { return Value::Null };
    intent["status"] = json!("succeeded");
    intent["payment_method"] = json!(method);
    intent["amount_received"] = intent["amount"].clone();
    intent["latest_charge"] = json!(new_id("ch"));
    intent["next_action"] = Value::Null;
    intent["last_payment_error"] = Value::Null;
    let intent = intent.clone();
    if let Some(customer) = intent["customer"].as_str() {
        attach(store, method, customer);
    }
    emit(store, "payment_intent.succeeded", &intent, None);
    if let Some(invoice) = store.intent_invoice.get(id).cloned() {
        invoices::mark_paid(store, &invoice, method);
    }
    store.get(id).cloned().unwrap_or_default()
}

/// Records a failed attempt on a PaymentIntent; returns the 402 error carrying it.
pub fn fail_payment_intent(store: &mut Store, id: &str, method: &str, error: ApiError) -> ApiError {
    let method_object = store.get(method).cloned().unwrap_or_default();
    let mut last_error = error.to_json()["error"].clone();
    last_error["payment_method"] = method_object.clone();
    let Some(intent) = store.get_mut(id) else { return error };
    intent["status"] = json!("requires_payment_method");
    intent["payment_method"] = Value::Null;
    intent["next_action"] = Value::Null;
    intent["last_payment_error"] = last_error;
    let intent = intent.clone();
    emit(store, "payment_intent.payment_failed", &intent, None);
    if let Some(invoice) = store.intent_invoice.get(id).cloned() {
        invoices::record_failure(store, &invoice);
    }
    error.with("payment_intent", intent).with("payment_method", method_object)
}

/// Completes or fails the 3D Secure challenge of an intent in `requires_action`.
pub fn authenticate(store: &mut Store, id: &str, complete: bool) -> Result<Value, ApiError> {
    let intent = store.objects.get(id).cloned().ok_or_else(|| ApiError::not_found("intent", id, "intent"))?;
    if intent["status"] != "requires_action" {
        return Err(ApiError::request(format!("{id} is not awaiting authentication (status {}).", intent["status"])));
    }
    let method = intent["payment_method"].as_str().unwrap_or_default().to_owned();
    let failure = || {
        ApiError::card(
            if intent["object"] == "setup_intent" {
                "setup_intent_authentication_failure"
            } else {
                "payment_intent_authentication_failure"
            },
            None,
            "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
        )
    };
    if complete {
        store.authenticated.insert(method.clone());
    }
    Ok(match (intent["object"].as_str(), complete) {
        (Some("payment_intent"), true) => succeed_payment_intent(store, id, &method),
        (Some("payment_intent"), false) => {
            fail_payment_intent(store, id, &method, failure());
            store.get(id).cloned().unwrap_or_default()
        }
        (_, true) => succeed_setup_intent(store, id, &method),
        (_, false) => {
            fail_setup_intent(store, id, &method, failure());
            store.get(id).cloned().unwrap_or_default()
        }
    })
}

/// `POST /v1/setup_intents`.
pub fn create_setup_intent(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    let mut intent = template("setup_intent");
    let id = new_id("seti");
    if let Some(customer) = params.str("customer") {
        store.find("customer", customer, "customer")?;
        intent["customer"] = json!(customer);
    }
    intent["id"] = json!(id);
    intent["client_secret"] = json!(format!("{id}_secret_{}", secret_suffix()));
    intent["created"] = json!(store.now());
    intent["usage"] = json!(params.str("usage").unwrap_or("off_session"));
    intent["description"] = params.str("description").map_or(Value::Null, |d| json!(d));
    intent["metadata"] = Value::Object(params.metadata().unwrap_or_default());
    if params.str("automatic_payment_methods.enabled") == Some("true") {
        intent["automatic_payment_methods"] = json!({"allow_redirects": "always", "enabled": true});
    }
    intent["payment_method_types"] = json!(["card"]);
    intent["status"] = json!("requires_payment_method");
    let intent = store.insert(intent);
    if params.str("confirm") == Some("true") {
        return confirm_setup_intent(store, &id, params);
    }
    Ok(intent)
}

/// `POST /v1/setup_intents/{id}/confirm`.
pub fn confirm_setup_intent(store: &mut Store, id: &str, params: &Params) -> Result<Value, ApiError> {
    let intent = store.find("setup_intent", id, "intent")?;
    confirmable(&intent, "setup_intent", "SetupIntent")?;
    let method = resolve_payment_method(store, params, intent["payment_method"].as_str())?;
    match setup(store, &method) {
        Outcome::Succeeded => Ok(succeed_setup_intent(store, id, &method)),
        Outcome::RequiresAction => {
            let secret = intent["client_secret"].as_str().unwrap_or_default().to_owned();
            let action = challenge_action(store, id, &secret, params.str("return_url"));
            let intent = store.get_mut(id).expect("found above");
            intent["status"] = json!("requires_action");
            intent["payment_method"] = json!(method);
            intent["next_action"] = action;
            Ok(intent.clone())
        }
        Outcome::Failed(error) => Err(fail_setup_intent(store, id, &method, error)),
    }
}

fn succeed_setup_intent(store: &mut Store, id: &str, method: &str) -> Value {
    store.authenticated.insert(method.to_owned());
    let Some(intent) = store.get_mut(id) else { return Value::Null };
    intent["status"] = json!("succeeded");
    intent["payment_method"] = json!(method);
    intent["next_action"] = Value::Null;
    intent["last_setup_error"] = Value::Null;
    let intent = intent.clone();
    if let Some(customer) = intent["customer"].as_str() {
        attach(store, method, customer);
    }
    emit(store, "setup_intent.succeeded", &intent, None);
    intent
}

fn fail_setup_intent(store: &mut Store, id: &str, method: &str, error: ApiError) -> ApiError {
    let method_object = store.get(method).cloned().unwrap_or_default();
    let mut last_error = error.to_json()["error"].clone();
    last_error["payment_method"] = method_object.clone();
    let Some(intent) = store.get_mut(id) else { return error };
    intent["status"] = json!("requires_payment_method");
    intent["payment_method"] = Value::Null;
    intent["next_action"] = Value::Null;
    intent["last_setup_error"] = last_error;
    let intent = intent.clone();
    emit(store, "setup_intent.setup_failed", &intent, None);
    error.with("setup_intent", intent).with("payment_method", method_object)
}
