/* A fake Stripe.js v3 served by the Stripe test double (tests/stripe-double). It implements the
 * subset the web app uses through @stripe/stripe-js and @stripe/react-stripe-js:
 *   Stripe(publishableKey) -> { elements, confirmPayment, confirmSetup, retrievePaymentIntent,
 *   retrieveSetupIntent, confirmCardPayment, confirmCardSetup, handleNextAction, createToken,
 *   createPaymentMethod }
 *   elements({clientSecret, appearance}) -> { create('payment'), getElement, update, submit, fetchUpdates }
 *   element -> { mount, unmount, destroy, on, off, once, update, focus, blur, clear, collapse }
 * The Payment Element renders plain inputs in the page (no iframe) labelled "Card number",
 * "Expiration", "CVC" and "Postal code". Every call goes to the double's own REST API with the
 * publishable key; 3D Secure shows a small dialog with "Complete authentication" and
 * "Fail authentication". The double replaces the base URL below when it serves this file.
 */
(function () {
  'use strict';

  var BASE = '__STRIPE_DOUBLE_BASE__';

  function encode(params, prefix, out) {
    out = out || [];
    Object.keys(params || {}).forEach(function (key) {
      var value = params[key];
      var name = prefix ? prefix + '[' + key + ']' : key;
      if (value === undefined || value === null) return;
      if (typeof value === 'object') encode(value, name, out);
      else out.push(encodeURIComponent(name) + '=' + encodeURIComponent(String(value)));
    });
    return out.join('&');
  }

  function idOf(clientSecret) {
    return String(clientSecret || '').split('_secret_')[0];
  }

  function luhn(digits) {
    var sum = 0;
    for (var i = 0; i < digits.length; i++) {
      var d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return digits.length >= 12 && sum % 10 === 0;
  }

  function Emitter() {
    this._handlers = {};
  }
  Emitter.prototype.on = function (event, handler) {
    (this._handlers[event] = this._handlers[event] || []).push(handler);
    return this;
  };
  Emitter.prototype.off = function (event, handler) {
    var list = this._handlers[event] || [];
    this._handlers[event] = handler ? list.filter(function (h) { return h !== handler; }) : [];
    return this;
  };
  Emitter.prototype.once = function (event, handler) {
    var self = this;
    function wrapper(payload) {
      self.off(event, wrapper);
      handler(payload);
    }
    return this.on(event, wrapper);
  };
  Emitter.prototype._emit = function (event, payload) {
    (this._handlers[event] || []).slice().forEach(function (h) { h(payload); });
  };

  // --- The Payment Element -----------------------------------------------------------------

  var FIELDS = [
    { name: 'number', label: 'Card number', placeholder: '1234 1234 1234 1234', autocomplete: 'cc-number', inputmode: 'numeric' },
    { name: 'expiry', label: 'Expiration', placeholder: 'MM / YY', autocomplete: 'cc-exp', inputmode: 'numeric' },
    { name: 'cvc', label: 'CVC', placeholder: 'CVC', autocomplete: 'cc-csc', inputmode: 'numeric' },
    { name: 'postal', label: 'Postal code', placeholder: '', autocomplete: 'postal-code', inputmode: 'text' }
  ];

  function PaymentElement(elements, type, options) {
    Emitter.call(this);
    this._elements = elements;
    this._type = type;
    this._options = options || {};
    this._node = null;
    this._inputs = {};
    this._destroyed = false;
  }
  PaymentElement.prototype = Object.create(Emitter.prototype);

  PaymentElement.prototype.mount = function (target) {
    var host = typeof target === 'string' ? document.querySelector(target) : target;
    if (!host) throw new Error('Stripe double: cannot mount the Payment Element, no element matches ' + target);
    var self = this;
    var root = document.createElement('div');
    root.className = 'StripeDouble-PaymentElement';
    root.setAttribute('data-testid', 'stripe-double-payment-element');
    FIELDS.forEach(function (field) {
      var id = 'stripe-double-' + field.name + '-' + Math.random().toString(36).slice(2, 8);
      var label = document.createElement('label');
      label.setAttribute('for', id);
      label.textContent = field.label;
      label.style.display = 'block';
      var input = document.createElement('input');
      input.id = id;
      input.name = field.name;
      input.type = 'text';
      input.placeholder = field.placeholder;
      input.autocomplete = field.autocomplete;
      input.setAttribute('inputmode', field.inputmode);
      input.addEventListener('input', function () { self._emit('change', self._changeEvent()); });
      input.addEventListener('focus', function () { self._emit('focus', { elementType: self._type }); });
      input.addEventListener('blur', function () { self._emit('blur', { elementType: self._type }); });
      self._inputs[field.name] = input;
      root.appendChild(label);
      root.appendChild(input);
    });
    var error = document.createElement('div');
    error.setAttribute('role', 'alert');
    error.className = 'StripeDouble-Error';
    root.appendChild(error);
    this._error = error;
    host.appendChild(root);
    this._node = root;
    setTimeout(function () { self._emit('ready', { elementType: self._type }); }, 0);
    return this;
  };

  PaymentElement.prototype._values = function () {
    var get = function (name) { return this._inputs[name] ? this._inputs[name].value.trim() : ''; }.bind(this);
    var expiry = get('expiry').replace(/\s/g, '').split('/');
    return {
      number: get('number').replace(/\D/g, ''),
      expMonth: expiry[0] || '',
      expYear: expiry[1] || '',
      cvc: get('cvc'),
      postal: get('postal')
    };
  };

  /** Stripe's client-side validation errors, or null. */
  PaymentElement.prototype._validate = function () {
    var v = this._values();
    var fail = function (code, message) { return { type: 'validation_error', code: code, message: message }; };
    if (!v.number) return fail('incomplete_number', 'Your card number is incomplete.');
    if (!luhn(v.number)) return fail('invalid_number', 'Your card number is invalid.');
    if (!/^\d{1,2}$/.test(v.expMonth) || !/^\d{2}(\d{2})?$/.test(v.expYear)) return fail('incomplete_expiry', "Your card's expiration date is incomplete.");
    var month = Number(v.expMonth);
    var year = Number(v.expYear.length === 2 ? '20' + v.expYear : v.expYear);
    var now = new Date();
    if (month < 1 || month > 12) return fail('invalid_expiry_month', "Your card's expiration date is invalid.");
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) {
      return fail('invalid_expiry_year_past', "Your card's expiration year is in the past.");
    }
    if (!/^\d{3,4}$/.test(v.cvc)) return fail('incomplete_cvc', "Your card's security code is incomplete.");
    if (!v.postal) return fail('incomplete_zip', 'Your postal code is incomplete.');
    return null;
  };

  PaymentElement.prototype._changeEvent = function () {
    var v = this._values();
    var empty = !v.number && !v.expMonth && !v.cvc && !v.postal;
    return { elementType: this._type, empty: empty, complete: this._validate() === null, collapsed: false, value: { type: 'card' } };
  };

  PaymentElement.prototype._paymentMethodData = function (extra) {
    var v = this._values();
    var data = {
      type: 'card',
      card: { number: v.number, exp_month: v.expMonth, exp_year: v.expYear, cvc: v.cvc },
      billing_details: { address: { postal_code: v.postal } }
    };
    if (extra && extra.billing_details) {
      var details = extra.billing_details;
      Object.keys(details).forEach(function (key) {
        if (key === 'address' && details.address) {
          Object.keys(details.address).forEach(function (part) { data.billing_details.address[part] = details.address[part]; });
        } else {
          data.billing_details[key] = details[key];
        }
      });
    }
    return data;
  };

  PaymentElement.prototype._showError = function (error) {
    if (this._error) this._error.textContent = error ? error.message : '';
  };
  PaymentElement.prototype.unmount = function () {
    if (this._node && this._node.parentNode) this._node.parentNode.removeChild(this._node);
    this._node = null;
    this._inputs = {};
    return this;
  };
  PaymentElement.prototype.destroy = function () {
    this.unmount();
    this._destroyed = true;
    var list = this._elements._created;
    var at = list.indexOf(this);
    if (at >= 0) list.splice(at, 1);
  };
  PaymentElement.prototype.update = function (options) {
    Object.assign(this._options, options || {});
  };
  PaymentElement.prototype.focus = function () {
    if (this._inputs.number) this._inputs.number.focus();
  };
  PaymentElement.prototype.blur = function () {
    if (document.activeElement && this._node && this._node.contains(document.activeElement)) document.activeElement.blur();
  };
  PaymentElement.prototype.clear = function () {
    var inputs = this._inputs;
    Object.keys(inputs).forEach(function (name) { inputs[name].value = ''; });
  };
  PaymentElement.prototype.collapse = function () {
    return this;
  };

  // --- Elements ----------------------------------------------------------------------------

  function Elements(stripe, options) {
    this._stripe = stripe;
    this._options = options || {};
    this._created = [];
  }
  Elements.prototype.create = function (type, options) {
    if (type !== 'payment' && type !== 'card') {
      throw new Error('Stripe double: only the "payment" element is supported (asked for "' + type + '").');
    }
    var element = new PaymentElement(this, type, options);
    this._created.push(element);
    return element;
  };
  Elements.prototype.getElement = function (type) {
    var found = this._created.filter(function (e) { return e._type === type || (type && type.elementType === e._type); });
    return found[0] || null;
  };
  Elements.prototype.update = function (options) {
    Object.assign(this._options, options || {});
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype._payment = function () {
    return this._created.filter(function (e) { return e._node; })[0] || null;
  };
  Elements.prototype.submit = function () {
    var element = this._payment();
    if (!element) return Promise.resolve({ error: { type: 'validation_error', message: 'The Payment Element is not mounted.' } });
    var error = element._validate();
    element._showError(error);
    return Promise.resolve(error ? { error: error } : {});
  };

  // --- Stripe ------------------------------------------------------------------------------

  function Stripe(key, options) {
    if (!(this instanceof Stripe)) return new Stripe(key, options);
    if (typeof key !== 'string' || !/^pk_/.test(key)) {
      throw new Error('Invalid value for Stripe(): apiKey should be a publishable key. You specified: ' + key + '.');
    }
    this._key = key;
    this._options = options || {};
  }
  Stripe.version = '__STRIPE_DOUBLE_RELEASE__';

  Stripe.prototype._registerWrapper = function () {};
  Stripe.prototype.registerAppInfo = function () {};

  Stripe.prototype._api = function (method, path, params) {
    var query = encode(params);
    var url = BASE + path + (method === 'GET' && query ? '?' + query : '');
    return fetch(url, {
      method: method,
      headers: { Authorization: 'Bearer ' + this._key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: method === 'GET' ? undefined : query
    }).then(function (response) {
      return response.json().then(function (json) { return { ok: response.ok, json: json }; });
    }, function (cause) {
      return { ok: false, json: { error: { type: 'api_connection_error', message: 'Stripe double unreachable: ' + cause } } };
    });
  };

  Stripe.prototype.elements = function (options) {
    return new Elements(this, options);
  };

  /** Shows the test challenge; resolves 'complete' or 'fail'. */
  function challenge() {
    return new Promise(function (resolve) {
      var overlay = document.createElement('div');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', '3D Secure authentication');
      overlay.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center;z-index:2147483647';
      var box = document.createElement('div');
      box.style.cssText = 'background:#fff;padding:24px;border-radius:8px;font:14px sans-serif;max-width:360px';
      var title = document.createElement('h2');
      title.textContent = '3D Secure test payment';
      var text = document.createElement('p');
      text.textContent = 'This is a test authentication page of the Stripe double.';
      box.appendChild(title);
      box.appendChild(text);
      [['complete', 'Complete authentication'], ['fail', 'Fail authentication']].forEach(function (pair) {
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = pair[1];
        button.style.marginRight = '8px';
        button.onclick = function () {
          document.body.removeChild(overlay);
          resolve(pair[0]);
        };
        box.appendChild(button);
      });
      overlay.appendChild(box);
      document.body.appendChild(overlay);
    });
  }

  /** Confirms an intent (kind 'payment_intents' | 'setup_intents') and settles 3D Secure. */
  Stripe.prototype._confirm = function (kind, options) {
    var self = this;
    options = options || {};
    var elements = options.elements;
    var clientSecret = options.clientSecret || (elements && elements._options.clientSecret);
    if (!clientSecret) {
      return Promise.resolve({ error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'Missing value for clientSecret.' } });
    }
    var confirmParams = options.confirmParams || {};
    var body = { client_secret: clientSecret };
    if (confirmParams.return_url) body.return_url = confirmParams.return_url;
    if (elements) {
      var element = elements._payment();
      if (!element) return Promise.resolve({ error: { type: 'validation_error', message: 'The Payment Element is not mounted.' } });
      var invalid = element._validate();
      element._showError(invalid);
      if (invalid) return Promise.resolve({ error: invalid });
      body.payment_method_data = element._paymentMethodData(confirmParams.payment_method_data);
    } else if (options.payment_method) {
      body.payment_method = options.payment_method;
    } else if (confirmParams.payment_method) {
      body.payment_method = confirmParams.payment_method;
    }
    var key = kind === 'payment_intents' ? 'paymentIntent' : 'setupIntent';
    var id = idOf(clientSecret);
    return this._api('POST', '/v1/' + kind + '/' + id + '/confirm', body).then(function (result) {
      if (!result.ok) {
        if (elements && elements._payment()) elements._payment()._showError(result.json.error);
        return { error: result.json.error };
      }
      return self._settle(kind, result.json, options, clientSecret);
    }).then(function (outcome) {
      if (outcome.error || !outcome.intent) return outcome;
      var intent = outcome.intent;
      var done = {};
      done[key] = intent;
      var redirect = options.redirect || 'always';
      if (redirect === 'always' && confirmParams.return_url) {
        var url = new URL(confirmParams.return_url, window.location.href);
        url.searchParams.set(kind === 'payment_intents' ? 'payment_intent' : 'setup_intent', intent.id);
        url.searchParams.set((kind === 'payment_intents' ? 'payment_intent' : 'setup_intent') + '_client_secret', clientSecret);
        url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : intent.status === 'processing' ? 'pending' : 'failed');
        window.location.assign(url.toString());
        return new Promise(function () {});
      }
      return done;
    });
  };

  /** Runs the challenge when the intent requires action, then re-reads it. */
  Stripe.prototype._settle = function (kind, intent, options, clientSecret) {
    var self = this;
    if (intent.status !== 'requires_action') return Promise.resolve({ intent: intent });
    return challenge().then(function (outcome) {
      return fetch(BASE + '/_double/intents/' + intent.id + '/authenticate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ outcome: outcome })
      });
    }).then(function () {
      return self._api('GET', '/v1/' + kind + '/' + intent.id, { client_secret: clientSecret });
    }).then(function (result) {
      if (!result.ok) return { error: result.json.error };
      var fresh = result.json;
      var lastError = fresh.last_payment_error || fresh.last_setup_error;
      if (fresh.status === 'requires_payment_method' && lastError) {
        var error = Object.assign({}, lastError);
        error[kind === 'payment_intents' ? 'payment_intent' : 'setup_intent'] = fresh;
        return { error: error };
      }
      return { intent: fresh };
    });
  };

  Stripe.prototype.confirmPayment = function (options) {
    return this._confirm('payment_intents', options);
  };
  Stripe.prototype.confirmSetup = function (options) {
    return this._confirm('setup_intents', options);
  };
  Stripe.prototype.confirmCardPayment = function (clientSecret, data) {
    var options = Object.assign({ clientSecret: clientSecret, redirect: 'if_required' }, data || {});
    return this._confirm('payment_intents', options);
  };
  Stripe.prototype.confirmCardSetup = function (clientSecret, data) {
    var options = Object.assign({ clientSecret: clientSecret, redirect: 'if_required' }, data || {});
    return this._confirm('setup_intents', options);
  };

  Stripe.prototype._retrieve = function (kind, clientSecret) {
    var key = kind === 'payment_intents' ? 'paymentIntent' : 'setupIntent';
    return this._api('GET', '/v1/' + kind + '/' + idOf(clientSecret), { client_secret: clientSecret }).then(function (result) {
      if (!result.ok) return { error: result.json.error };
      var done = {};
      done[key] = result.json;
      return done;
    });
  };
  Stripe.prototype.retrievePaymentIntent = function (clientSecret) {
    return this._retrieve('payment_intents', clientSecret);
  };
  Stripe.prototype.retrieveSetupIntent = function (clientSecret) {
    return this._retrieve('setup_intents', clientSecret);
  };

  Stripe.prototype.handleNextAction = function (options) {
    var self = this;
    var clientSecret = options && options.clientSecret;
    var kind = /^seti_/.test(clientSecret || '') ? 'setup_intents' : 'payment_intents';
    var key = kind === 'payment_intents' ? 'paymentIntent' : 'setupIntent';
    return this._api('GET', '/v1/' + kind + '/' + idOf(clientSecret), { client_secret: clientSecret }).then(function (result) {
      if (!result.ok) return { error: result.json.error };
      return self._settle(kind, result.json, options, clientSecret).then(function (outcome) {
        if (outcome.error) return outcome;
        var done = {};
        done[key] = outcome.intent;
        return done;
      });
    });
  };

  var unsupported = function (name) {
    return function () {
      return Promise.resolve({ error: { type: 'invalid_request_error', message: 'Stripe double: ' + name + ' is not supported.' } });
    };
  };
  Stripe.prototype.createToken = unsupported('createToken');
  Stripe.prototype.createPaymentMethod = unsupported('createPaymentMethod');
  Stripe.prototype.createConfirmationToken = unsupported('createConfirmationToken');

  window.Stripe = Stripe;
})();
