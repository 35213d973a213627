//! Keeps API keys out of what modlearn prints or writes about a request:
//! error messages, attempt records and logged bodies (a server may echo the
//! request, key included, into an error). A model's answer is never
//! redacted: it is stored and judged as received (`OPENAI_API_KEY=x` must not
//! turn every `x` of a mod into `[REDACTED]`).

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Keys shorter than this are not treated as patterns: a dummy key for a
/// local server (`x`, `none`, `dummy`) would match ordinary text everywhere,
/// and so short a key protects nothing worth the damage.
pub const MIN_SECRET_LEN: usize = 8;

/// Replaces each secret of at least [`MIN_SECRET_LEN`] characters in `text`
/// (and its `Bearer ` form) with `[REDACTED]`. For error messages, attempt
/// errors and logged bodies, never for answers.
pub fn redact(text: &str, secrets: &[&str]) -> String {
    let mut secrets: Vec<&str> = secrets.iter().copied().filter(|secret| secret.chars().count() >= MIN_SECRET_LEN).collect();
    // Longest first, so a secret that contains another is replaced whole.
    secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    let mut out = text.to_owned();
    for secret in secrets {
        out = out.replace(&format!("Bearer {secret}"), REDACTED).replace(secret, REDACTED);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_every_occurrence_and_the_bearer_form() {
        let text = "auth: Bearer sk-secret-1; echo sk-secret-1 and sk-secret-1x";
        assert_eq!(redact(text, &["sk-secret-1"]), "auth: [REDACTED]; echo [REDACTED] and [REDACTED]x");
    }

    #[test]
    fn ignores_empty_and_short_secrets_and_prefers_the_longest() {
        assert_eq!(redact("abcdefgh abcdefghijk", &["", "abcdefgh", "abcdefghijk"]), "[REDACTED] [REDACTED]");
        assert_eq!(redact("nothing here", &[]), "nothing here");
        // A dummy key is no pattern: `x` in `export` stays.
        assert_eq!(redact("export function activate(x) {}", &["x", "dummy", "sk-1234"]), "export function activate(x) {}");
    }
}
