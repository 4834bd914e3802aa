//! Stripe's error envelope `{"error": {type, code, message, param, decline_code, ...}}` with the
//! HTTP statuses Stripe uses: 400 invalid request, 401 bad key, 402 card errors, 404 missing.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde_json::{Map, Value, json};

use crate::params::stripe_name;

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: Map<String, Value>,
}

impl ApiError {
    fn new(status: StatusCode, kind: &str, code: Option<&str>, param: Option<&str>, message: String) -> ApiError {
        let mut body = Map::new();
        body.insert("type".into(), json!(kind));
        if let Some(code) = code {
            body.insert("code".into(), json!(code));
            body.insert("doc_url".into(), json!(format!("https://stripe.com/docs/error-codes/{}", code.replace('_', "-"))));
        }
        if let Some(param) = param {
            body.insert("param".into(), json!(stripe_name(param)));
        }
        body.insert("message".into(), json!(message));
        ApiError { status, body }
    }

    pub fn missing(param: &str) -> ApiError {
        let name = stripe_name(param);
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some("parameter_missing"),
            Some(param),
            format!("Missing required param: {name}."),
        )
    }

    pub fn invalid(code: &str, param: &str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_request_error", Some(code), Some(param), message.into())
    }

    /// An invalid request without a documented code.
    pub fn request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_request_error", None, None, message.into())
    }

    pub fn with_code(status: StatusCode, code: &str, param: Option<&str>, message: impl Into<String>) -> ApiError {
        ApiError::new(status, "invalid_request_error", Some(code), param, message.into())
    }

    pub fn not_found(kind: &str, id: &str, param: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            Some("resource_missing"),
            Some(param),
            format!("No such {kind}: '{id}'"),
        )
    }

    pub fn unrecognized(method: &str, path: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "invalid_request_error", None, None, format!("Unrecognized request URL ({method}: {path})."))
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "invalid_request_error", None, None, message.into())
    }

    pub fn forbidden_publishable() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            Some("secret_key_required"),
            None,
            "This API call cannot be made with a publishable API key. Please use a secret API key.".into(),
        )
    }

    /// A card error (402) as Stripe returns it from confirm / pay.
    pub fn card(code: &str, decline_code: Option<&str>, message: &str) -> ApiError {
        let mut error = ApiError::new(StatusCode::PAYMENT_REQUIRED, "card_error", Some(code), None, message.to_owned());
        if let Some(decline_code) = decline_code {
            error.body.insert("decline_code".into(), json!(decline_code));
        }
        error
    }

    /// Attaches an object (`payment_intent`, `setup_intent`, `payment_method`) to the error.
    pub fn with(mut self, key: &str, value: Value) -> ApiError {
        self.body.insert(key.into(), value);
        self
    }

    pub fn to_json(&self) -> Value {
        json!({ "error": Value::Object(self.body.clone()) })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.to_json())).into_response()
    }
}
