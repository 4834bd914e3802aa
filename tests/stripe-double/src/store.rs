//! The double's state: every Stripe object as the JSON it answers with, keyed by id, plus what
//! Stripe keeps out of sight (card behaviour, client secrets, the clock, idempotent replies, the
//! event queue). One `Mutex<Store>` guards it; API logic runs synchronously under that lock.

use std::collections::{HashMap, HashSet};

use rand::{Rng, distributions::Alphanumeric};
use serde_json::{Value, json};

use crate::{error::ApiError, events::Webhooks, payments::Card};

#[derive(Default)]
pub struct Store {
    /// Every object by id, as stored (hidden includable fields present).
    pub objects: HashMap<String, Value>,
    /// Ids in creation order, for lists (newest first when listed, as Stripe does).
    pub order: Vec<String>,
    /// Seconds added to the wall clock (`advance_clock`).
    pub clock_offset: i64,
    /// How each payment method behaves when charged (Stripe's test cards).
    pub cards: HashMap<String, Card>,
    /// Payment methods that completed 3D Secure once (set up or paid on-session).
    pub authenticated: HashSet<String>,
    /// Forced outcome of a subscription's next renewal: true = succeed, false = fail.
    pub next_renewal: HashMap<String, bool>,
    /// PaymentIntent → the invoice it pays.
    pub intent_invoice: HashMap<String, String>,
    /// (idempotency key, method + path) → the stored reply.
    pub idempotent: HashMap<(String, String), (u16, Value)>,
    /// The request being served: (request id, idempotency key), copied into events.
    pub request: Option<(String, Option<String>)>,
    /// Every authenticated API request, as `METHOD /v1/path` (how often the app asks Stripe).
    pub api_calls: Vec<String>,
    pub webhooks: Webhooks,
    pub base_url: String,
    pub api_version: String,
    pub max_tax_ids: usize,
}

/// `prefix` + Stripe-looking random characters (`cus_` + 14, others + 24).
pub fn new_id(prefix: &str) -> String {
    let length = if prefix == "cus" || prefix == "prod" || prefix == "si" { 14 } else { 24 };
    let random: String = rand::thread_rng().sample_iter(&Alphanumeric).take(length).map(char::from).collect();
    format!("{prefix}_{random}")
}

pub fn secret_suffix() -> String {
    rand::thread_rng().sample_iter(&Alphanumeric).take(25).map(char::from).collect()
}

impl Store {
    pub fn now(&self) -> i64 {
        chrono::Utc::now().timestamp() + self.clock_offset
    }

    pub fn insert(&mut self, object: Value) -> Value {
        let id = object["id"].as_str().unwrap_or_default().to_owned();
        if !self.objects.contains_key(&id) {
            self.order.push(id.clone());
        }
        self.objects.insert(id, object.clone());
        object
    }

    pub fn get(&self, id: &str) -> Option<&Value> {
        self.objects.get(id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Value> {
        self.objects.get_mut(id)
    }

    /// An object of the given `object` type, or Stripe's 404.
    pub fn find(&self, kind: &str, id: &str, param: &str) -> Result<Value, ApiError> {
        match self.objects.get(id) {
            Some(object) if object["object"] == kind => Ok(object.clone()),
            _ => Err(ApiError::not_found(kind, id, param)),
        }
    }

    /// Objects of one type matching `keep`, newest first.
    pub fn all(&self, kind: &str, keep: impl Fn(&Value) -> bool) -> Vec<Value> {
        self.order.iter().rev().filter_map(|id| self.objects.get(id)).filter(|o| o["object"] == kind && keep(o)).cloned().collect()
    }

    /// The object as the API shows it: includable fields (invoice.confirmation_secret) left out.
    pub fn public(&self, object: &Value) -> Value {
        let mut shown = object.clone();
        strip_includable(&mut shown);
        shown
    }

    /// The object with `expand[]` paths applied (`latest_invoice`, `latest_invoice.confirmation_secret`,
    /// `data.latest_invoice` on lists, `customer`, `default_payment_method`, `items.data.price.product` ...).
    pub fn render(&self, object: &Value, expand: &[String]) -> Value {
        let mut shown = self.public(object);
        for path in expand {
            let parts: Vec<&str> = path.split('.').collect();
            self.expand_path(&mut shown, &parts);
        }
        shown
    }

    fn expand_path(&self, node: &mut Value, path: &[&str]) {
        let Some((head, rest)) = path.split_first() else { return };
        match node {
            Value::Array(items) => {
                for item in items {
                    self.expand_path(item, path);
                }
            }
            Value::Object(map) => {
                if *head == "confirmation_secret" && map.get("object") == Some(&json!("invoice")) {
                    let id = map.get("id").and_then(Value::as_str).unwrap_or_default();
                    let secret = self.objects.get(id).map(|o| o["confirmation_secret"].clone()).unwrap_or(Value::Null);
                    map.insert("confirmation_secret".into(), secret);
                    return;
                }
                let Some(field) = map.get_mut(*head) else { return };
                if let Some(id) = field.as_str()
                    && let Some(object) = self.objects.get(id)
                {
                    *field = self.public(object);
                }
                self.expand_path(field, rest);
            }
            _ => {}
        }
    }

    /// Stripe's list envelope, honouring `limit` (default 10) and `starting_after`.
    pub fn list(&self, url: &str, items: Vec<Value>, limit: Option<i64>, starting_after: Option<&str>, expand: &[String]) -> Value {
        let limit = limit.unwrap_or(10).clamp(1, 100) as usize;
        let start = match starting_after {
            Some(after) => items.iter().position(|o| o["id"] == after).map(|at| at + 1).unwrap_or(items.len()),
            None => 0,
        };
        let page: Vec<Value> = items.iter().skip(start).take(limit).map(|o| self.render(o, &[])).collect();
        let has_more = items.len() > start + page.len();
        let mut list = json!({"object": "list", "data": page, "has_more": has_more, "url": url});
        // `expand[]=data.x` applies to each element.
        for path in expand {
            let parts: Vec<&str> = path.split('.').collect();
            self.expand_path(&mut list, &parts);
        }
        list
    }
}

fn strip_includable(node: &mut Value) {
    if let Value::Object(map) = node {
        if map.get("object") == Some(&json!("invoice")) {
            map.remove("confirmation_secret");
        }
        for value in map.values_mut() {
            strip_includable(value);
        }
    } else if let Value::Array(items) = node {
        for item in items {
            strip_includable(item);
        }
    }
}
