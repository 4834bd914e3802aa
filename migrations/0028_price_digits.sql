-- Prices take up to 18 digits before the point and 2 after (spec 1 §5 "Price: up to 18 digits, at
-- most 2 decimals"), as the web app's forms accept (issue 36): numeric(12, 2) refused an 11-digit
-- price the form let through. Widening a numeric keeps every stored value as it is.
alter table channel alter column price type numeric(20, 2);
alter table channel_subscription alter column price_per_month type numeric(20, 2);
