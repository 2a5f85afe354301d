//! What the studio takes from the machine: the clock, secrets and seeds
//! from the operating system, and its bound on an agent's thinking.

/// The studio's bound on one agent's thinking ([`Config::think`]): one
/// studio per process.
pub(super) static THINK: std::sync::OnceLock<std::time::Duration> = std::sync::OnceLock::new();

/// Runs an agent's `work` (a decision, or training as it sits down) under
/// the studio's bound on thinking: the agent answers with what it has
/// once it passes, so that no agent holds its game, its table's pages or
/// the server's threads for longer. (Memory is bounded as everywhere: a
/// search or a training stops growing near the cap.) An agent that fails
/// (a panic) fails its own game, with what it said: never the server.
pub(super) fn thinking<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    let bounded = || match THINK.get() {
        Some(&limit) => crate::budget::thinking_until(std::time::Instant::now() + limit, work),
        None => work(),
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(bounded)).map_err(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no reason given".into());
        format!("an agent stopped with an internal error ({said}); this game cannot go on, the studio's other games are unharmed")
    })
}

/// A new secret: 128 bits from the operating system, in hex.
pub(super) fn token() -> Result<String, String> {
    use rand::TryRng as _;
    let mut bytes = [0u8; 16];
    rand::rngs::SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| format!("cannot draw a secret from the operating system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A seed from the operating system: nobody at the table can guess it.
pub(super) fn seed() -> Result<u64, String> {
    use rand::TryRng as _;
    rand::rngs::SysRng
        .try_next_u64()
        .map_err(|e| format!("cannot draw a seed from the operating system: {e}"))
}

/// Unix seconds now.
pub(super) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_agent_that_fails_fails_only_what_it_was_doing() {
        let failed = super::thinking(|| -> u32 { panic!("a search lost its way") });
        let why = failed.unwrap_err();
        assert!(why.contains("a search lost its way"), "{why}");
        assert!(why.contains("other games are unharmed"), "{why}");
        assert_eq!(super::thinking(|| 7), Ok(7));
    }
}
