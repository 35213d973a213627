//! What a completion cost, from a table of list prices.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{ProposeError, Usage};

/// List price in USD per million tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// USD per 1M input (prompt) tokens.
    pub input: f64,
    /// USD per 1M output (completion) tokens.
    pub output: f64,
}

/// Prices by model-name prefix; the longest matching prefix wins, so
/// `gpt-4.1-mini-2025-04-14` takes `gpt-4.1-mini`, not `gpt-4.1`.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceTable {
    prices: BTreeMap<String, Price>,
}

/// Published list prices (standard tier, no caching or batch discounts) as
/// of late 2025: (model prefix, USD per 1M input, USD per 1M output).
const BUILTIN: &[(&str, f64, f64)] = &[
    ("gpt-5", 1.25, 10.0),
    ("gpt-5-mini", 0.25, 2.0),
    ("gpt-5-nano", 0.05, 0.40),
    ("gpt-4.1", 2.0, 8.0),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4o", 2.50, 10.0),
    ("gpt-4o-mini", 0.15, 0.60),
    ("o1", 15.0, 60.0),
    ("o1-mini", 1.10, 4.40),
    ("o3", 2.0, 8.0),
    ("o3-mini", 1.10, 4.40),
    ("o3-pro", 20.0, 80.0),
    ("o4-mini", 1.10, 4.40),
    ("claude-opus-4", 15.0, 75.0),
    ("claude-opus-4-5", 5.0, 25.0),
    ("claude-sonnet-4", 3.0, 15.0),
    ("claude-haiku-4-5", 1.0, 5.0),
    ("claude-3-7-sonnet", 3.0, 15.0),
    ("claude-3-5-sonnet", 3.0, 15.0),
    ("claude-3-5-haiku", 0.80, 4.0),
    ("claude-3-haiku", 0.25, 1.25),
];

impl Default for PriceTable {
    fn default() -> PriceTable {
        PriceTable::builtin()
    }
}

impl PriceTable {
    /// No prices: every model costs 0 and is unknown.
    pub fn empty() -> PriceTable {
        PriceTable { prices: BTreeMap::new() }
    }

    /// The built-in list prices of common OpenAI and Anthropic models.
    pub fn builtin() -> PriceTable {
        let prices = BUILTIN.iter().map(|&(prefix, input, output)| (prefix.to_owned(), Price { input, output })).collect();
        PriceTable { prices }
    }

    /// Sets the price of every model whose name starts with `prefix`.
    pub fn insert(&mut self, prefix: impl Into<String>, price: Price) {
        self.prices.insert(prefix.into(), price);
    }

    /// This table with the prices in a JSON file laid over it:
    /// `{"model-prefix": {"input": 2.0, "output": 8.0}}` (USD per 1M tokens).
    pub fn with_overrides_from_file(mut self, path: &Path) -> Result<PriceTable, ProposeError> {
        let shown = path.display();
        let text =
            std::fs::read_to_string(path).map_err(|error| ProposeError::Config(format!("cannot read price file `{shown}`: {error}")))?;
        let entries: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).map_err(|error| {
            ProposeError::Config(format!(
                "price file `{shown}` is not a JSON object of model prefixes: {error} (expected {{\"gpt-4.1\": {{\"input\": 2.0, \"output\": 8.0}}}})"
            ))
        })?;
        for (prefix, value) in entries {
            let price: Price = serde_json::from_value(value).map_err(|error| {
                ProposeError::Config(format!(
                    "price file `{shown}` at `{prefix}`: {error} (expected {{\"input\": USD per 1M tokens, \"output\": USD per 1M tokens}})"
                ))
            })?;
            if !(price.input.is_finite() && price.output.is_finite() && price.input >= 0.0 && price.output >= 0.0) {
                return Err(ProposeError::Config(format!("price file `{shown}` at `{prefix}`: prices must be non-negative numbers")));
            }
            self.prices.insert(prefix, price);
        }
        Ok(self)
    }

    /// The price of `model` (longest matching prefix), or `None` if unknown.
    pub fn price(&self, model: &str) -> Option<Price> {
        self.prices
            .iter()
            .filter(|(prefix, _)| model.starts_with(prefix.as_str()))
            .max_by_key(|(prefix, _)| prefix.len())
            .map(|(_, price)| *price)
    }

    /// Cost of `usage` on `model` in USD; 0 for a model not in the table
    /// (see [`PriceTable::price`] to tell).
    pub fn cost(&self, model: &str, usage: Usage) -> f64 {
        self.price(model)
            .map_or(0.0, |price| (usage.input_tokens as f64 * price.input + usage.output_tokens as f64 * price.output) / 1_000_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins() {
        let table = PriceTable::builtin();
        assert_eq!(table.price("gpt-4.1-mini-2025-04-14"), Some(Price { input: 0.40, output: 1.60 }));
        assert_eq!(table.price("gpt-4.1-2025-04-14"), Some(Price { input: 2.0, output: 8.0 }));
        assert_eq!(table.price("o3-mini"), Some(Price { input: 1.10, output: 4.40 }));
        assert_eq!(table.price("claude-opus-4-1-20250805"), Some(Price { input: 15.0, output: 75.0 }));
        assert_eq!(table.price("claude-opus-4-5-20251101"), Some(Price { input: 5.0, output: 25.0 }));
        assert_eq!(table.price("claude-sonnet-4-5"), Some(Price { input: 3.0, output: 15.0 }));
        assert_eq!(table.price("llama3"), None);
    }

    #[test]
    fn cost_is_per_million_tokens() {
        let usage = Usage { input_tokens: 1_000_000, output_tokens: 500_000 };
        assert!((PriceTable::builtin().cost("gpt-4.1", usage) - 6.0).abs() < 1e-9);
        assert_eq!(PriceTable::builtin().cost("my-local-model", usage), 0.0);
    }

    #[test]
    fn overrides_from_file_add_and_replace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prices.json");
        std::fs::write(&path, r#"{"gpt-4.1": {"input": 1.0, "output": 2.0}, "llama": {"input": 0, "output": 0.5}}"#).unwrap();
        let table = PriceTable::builtin().with_overrides_from_file(&path).unwrap();
        assert_eq!(table.price("gpt-4.1"), Some(Price { input: 1.0, output: 2.0 }));
        assert_eq!(table.price("llama3.1"), Some(Price { input: 0.0, output: 0.5 }));
        assert_eq!(table.price("gpt-4.1-mini"), Some(Price { input: 0.40, output: 1.60 }));
    }

    #[test]
    fn override_errors_name_the_file_and_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prices.json");
        for (text, wanted) in [
            (r#"{"gpt-x": {"input": 1.0}}"#, "at `gpt-x`: missing field `output`"),
            (r#"{"gpt-x": {"input": 1.0, "output": 2, "cached": 3}}"#, "at `gpt-x`: unknown field `cached`"),
            (r#"{"gpt-x": {"input": -1.0, "output": 2}}"#, "at `gpt-x`: prices must be non-negative"),
            (r#"[1, 2]"#, "is not a JSON object of model prefixes"),
        ] {
            std::fs::write(&path, text).unwrap();
            let message = PriceTable::empty().with_overrides_from_file(&path).unwrap_err().to_string();
            assert!(message.contains(&format!("price file `{}`", path.display())), "{message}");
            assert!(message.contains(wanted), "{message}");
        }
    }
}
