//! Templates for every object the double returns: Stripe's published example objects
//! (fixtures/stripe.json), with the example values that the double's state does not decide
//! (discounts, shipping costs, pending updates ...) reset to what a fresh test-mode object has.

use std::sync::OnceLock;

use serde_json::{Value, json};

static FIXTURES: OnceLock<Value> = OnceLock::new();

/// The template of a resource (`customer`, `subscription`, ...), cleaned.
pub fn template(resource: &str) -> Value {
    let all =
        FIXTURES.get_or_init(|| serde_json::from_str(include_str!("../fixtures/stripe.json")).expect("fixtures/stripe.json is valid JSON"));
    let mut object = all["resources"][resource].clone();
    assert!(object.is_object(), "no fixture for {resource}");
    clean(resource, &mut object);
    object
}

fn set_null(object: &mut Value, keys: &[&str]) {
    for key in keys {
        object[*key] = Value::Null;
    }
}

fn clean(resource: &str, object: &mut Value) {
    match resource {
        "customer" => {
            set_null(object, &["discount", "shipping", "currency"]);
            object["address"] = Value::Null;
        }
        "product" => {
            set_null(object, &["package_dimensions", "default_price", "description"]);
        }
        "price" => set_null(object, &["custom_unit_amount", "transform_quantity"]),
        "subscription" => {
            set_null(
                object,
                &[
                    "billing_cycle_anchor_config",
                    "billing_thresholds",
                    "cancel_at",
                    "canceled_at",
                    "ended_at",
                    "next_pending_invoice_item_invoice",
                    "pause_collection",
                    "pending_invoice_item_interval",
                    "pending_update",
                    "transfer_data",
                    "trial_end",
                    "trial_start",
                    "managed_payments",
                ],
            );
            object["billing_schedules"] = json!([]);
            object["billing_mode"] = json!({"flexible": null, "type": "classic"});
            object["automatic_tax"] = json!({"disabled_reason": null, "enabled": false, "liability": null});
            object["payment_settings"] =
                json!({"payment_method_options": null, "payment_method_types": null, "save_default_payment_method": "off"});
            object["cancellation_details"] = json!({"comment": null, "feedback": null, "reason": null});
        }
        "subscription_item" => {
            set_null(object, &["billing_thresholds"]);
        }
        "invoice" => {
            set_null(
                object,
                &[
                    "from_invoice",
                    "last_finalization_error",
                    "shipping_cost",
                    "shipping_details",
                    "customer_shipping",
                    "due_date",
                    "next_payment_attempt",
                    "webhooks_delivered_at",
                    "effective_at",
                    "customer_address",
                ],
            );
            object["amount_overpaid"] = json!(0);
            object["automatic_tax"] =
                json!({"disabled_reason": null, "enabled": false, "liability": null, "provider": null, "status": null});
            object["payment_settings"] = json!({"default_mandate": null, "payment_method_options": null, "payment_method_types": null});
            object["lines"] = json!({"object": "list", "data": [], "has_more": false, "url": ""});
        }
        "line_item" => {}
        "payment_intent" => {
            set_null(
                object,
                &[
                    "canceled_at",
                    "last_payment_error",
                    "next_action",
                    "processing",
                    "transfer_data",
                    "payment_method_configuration_details",
                    "managed_payments",
                    "amount_details",
                ],
            );
            object["automatic_payment_methods"] = Value::Null;
        }
        "setup_intent" => {
            set_null(object, &["last_setup_error", "next_action", "payment_method_configuration_details", "automatic_payment_methods"]);
        }
        "payment_method" => {
            object["metadata"] = json!({});
            object["billing_details"] = json!({
                "address": {"city": null, "country": null, "line1": null, "line2": null, "postal_code": null, "state": null},
                "email": null, "name": null, "phone": null, "tax_id": null
            });
            object["card"]["wallet"] = Value::Null;
            object["card"]["generated_from"] = Value::Null;
        }
        "event" => {
            object["data"] = json!({});
        }
        _ => {}
    }
}

/// The line-item template (Stripe's example invoice's first line).
pub fn line_item() -> Value {
    let invoice = FIXTURES.get().cloned().unwrap_or_else(|| {
        let _ = template("customer");
        FIXTURES.get().cloned().unwrap_or_default()
    });
    invoice["resources"]["invoice"]["lines"]["data"][0].clone()
}
