//! Keeps API keys out of everything modlearn prints or writes.

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Replaces each non-empty secret in `text` (and its `Bearer ` form) with
/// `[REDACTED]`. Used on every error message, attempt error and logged body.
pub fn redact(text: &str, secrets: &[&str]) -> String {
    let mut secrets: Vec<&str> = secrets.iter().copied().filter(|secret| !secret.is_empty()).collect();
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
    fn ignores_empty_secrets_and_prefers_the_longest() {
        assert_eq!(redact("abc abcdef", &["", "abc", "abcdef"]), "[REDACTED] [REDACTED]");
        assert_eq!(redact("nothing here", &[]), "nothing here");
    }
}
