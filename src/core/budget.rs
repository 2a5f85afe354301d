//! The budgets a command keeps: the time it was given (`--time`) and the
//! memory it may hold (`--memory`, 1 GiB unless set).
//!
//! Memory is the heap in use, counted by the process's allocator (a
//! counting wrapper around the system's): every long loop (a solver's
//! batches, a tree being built, the games of a verdict) asks [`over_memory`]
//! as it goes, and a run that reaches the cap stops with a clear message
//! and keeps what it has. Each thread counts on its own and adds to the
//! shared count every 256 KiB, so the cost per allocation is small.
//!
//! Time is a deadline for the whole process, set once by a command that
//! was given `--time` ([`set_deadline`]); the loops that play games or
//! search ask [`expired`] as they go, so a game whose players stall cannot
//! run past it. Work cut short by the deadline is discarded, never counted
//! as played. Parts of a program that keep a budget of their own (a
//! player's training in the studio) pass their deadline explicitly.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicIsize, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The heap a command may hold unless `--memory` says otherwise: 1 GiB.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// The system's allocator, counting the bytes it hands out.
pub struct Counting;

/// Bytes allocated and not yet freed, as the threads have reported them.
/// Signed: a block freed on one thread may be reported before another
/// thread reports allocating it.
static IN_USE: AtomicIsize = AtomicIsize::new(0);
/// The cap on [`IN_USE`].
static CAP: AtomicUsize = AtomicUsize::new(DEFAULT_MEMORY);

/// How far a thread's own count may drift before it is added to
/// [`IN_USE`]: the solvers allocate and free small blocks at every step, and
/// one shared atomic for each cost them about a tenth of their speed. The
/// count is then off by at most this much per thread.
const DRIFT: isize = 256 * 1024;

thread_local! {
    /// Bytes this thread allocated less bytes it freed, not yet in [`IN_USE`].
    /// A constant initialiser and no destructor: usable from the allocator,
    /// even while the thread ends.
    static DRIFTED: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
}

/// What a block of `size` bytes costs the process: the system allocator
/// (glibc's malloc) keeps a word of bookkeeping before each block and
/// rounds it up to 16 bytes, 32 at least. A solver holds millions of small
/// blocks, whose bookkeeping is a third again of their size: counted as
/// asked, the cap would let the resident memory run past it.
fn charged(size: usize) -> isize {
    (size.saturating_add(8 + 15) & !15).max(32) as isize
}

/// Counts `bytes` allocated (or freed, when negative).
fn count(bytes: isize) {
    let flushed = DRIFTED.try_with(|drifted| {
        let now = drifted.get() + bytes;
        if now.abs() >= DRIFT {
            drifted.set(0);
            now
        } else {
            drifted.set(now);
            0
        }
    });
    let flush = flushed.unwrap_or(bytes);
    if flush != 0 {
        IN_USE.fetch_add(flush, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` with the same arguments; the
// counter only observes sizes and never touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            count(charged(layout.size()));
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            count(charged(layout.size()));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator (so from `System`) with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        count(-charged(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout`, as the caller promises.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            count(charged(new_size) - charged(layout.size()));
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes of heap in use now, give or take 256 KiB per thread.
pub fn in_use() -> usize {
    usize::try_from(IN_USE.load(Ordering::Relaxed)).unwrap_or(0)
}

/// The memory cap in force, in bytes.
pub fn memory_cap() -> usize {
    CAP.load(Ordering::Relaxed)
}

/// Sets the memory cap (`--memory`), in bytes.
pub fn set_memory_cap(bytes: usize) {
    CAP.store(bytes, Ordering::Relaxed);
}

/// Whether the heap in use has reached three quarters of the cap: the last
/// quarter is left for what the count does not see (the allocator's own
/// bookkeeping and the free pages it keeps, the program, the stacks) and
/// for the work in flight when a loop looks, so that the process's
/// resident memory stays under the cap.
pub fn over_memory() -> bool {
    over_memory_with(0)
}

/// Whether the heap in use, and `more` bytes a loop will still need once
/// it stops (to put its answer together), have reached three quarters of
/// the cap (see [`over_memory`]).
pub fn over_memory_with(more: usize) -> bool {
    let cap = memory_cap();
    in_use().saturating_add(more) >= cap - cap / 4
}

/// Whether the heap in use has reached seven eighths of the cap: where a
/// command's last, short phase stops (the answer it puts together once its
/// loop stopped at [`over_memory`]'s three quarters), keeping half the last
/// quarter for what the count does not see.
pub fn near_cap() -> bool {
    let cap = memory_cap();
    in_use() >= cap - cap / 8
}

/// "1 GiB", "512 MiB": a cap as a person reads it.
pub fn show_bytes(bytes: usize) -> String {
    const MIB: usize = 1 << 20;
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= MIB {
        format!("{:.0} MiB", bytes as f64 / MIB as f64)
    } else {
        format!("{bytes} bytes")
    }
}

/// `--memory` as bytes: `1G`, `512M`, `262144K`, or a plain number of
/// bytes; at least 256 MiB.
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(at) => (&text[..at], text[at..].trim()),
        None => (text, ""),
    };
    let scale: f64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("`{text}` is not a size; write e.g. 512M or 2G")),
    };
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size; write e.g. 512M or 2G"))?;
    let bytes = value * scale;
    // Below this the program's own code and tables, which the count does
    // not see, would pass the cap by themselves.
    if !(bytes >= 256.0 * 1024.0 * 1024.0 && bytes.is_finite()) {
        return Err(format!("`{text}` is too small: give at least 256M"));
    }
    Ok(bytes.min(usize::MAX as f64) as usize)
}

/// When the process started counting time (deadlines are kept as
/// nanoseconds after it).
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The process's deadline, as nanoseconds after [`epoch`] (0: none).
static DEADLINE: AtomicU64 = AtomicU64::new(0);

/// Sets the process's deadline: from now on, [`expired`] says when it has passed.
pub fn set_deadline(at: Instant) {
    let nanos = at.saturating_duration_since(epoch()).as_nanos().max(1);
    DEADLINE.store(u64::try_from(nanos).unwrap_or(u64::MAX), Ordering::Relaxed);
}

thread_local! {
    /// This thread's own deadline while it thinks for one agent
    /// ([`thinking_until`]).
    static THINKING_UNTIL: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `work` on this thread with its own deadline `at` as well: while it
/// runs, [`deadline`] and [`expired`] answer the earlier of `at` and the
/// process's. A server gives each agent's thinking such a deadline, so
/// that one agent cannot hold a game (or the server) longer than it allows.
pub fn thinking_until<T>(at: Instant, work: impl FnOnce() -> T) -> T {
    /// Puts the thread's deadline back however `work` ends, a panic
    /// included: a server that catches an agent's panic goes on using the
    /// thread.
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            THINKING_UNTIL.set(self.0);
        }
    }
    let _restore = Restore(THINKING_UNTIL.replace(Some(before_or(at, THINKING_UNTIL.get()))));
    work()
}

fn before_or(at: Instant, other: Option<Instant>) -> Instant {
    other.map_or(at, |o| o.min(at))
}

/// This thread's own deadline, while it thinks for an agent
/// ([`thinking_until`]).
pub fn thinking_deadline() -> Option<Instant> {
    THINKING_UNTIL.get()
}

/// The process's deadline, or this thread's own while it thinks for an
/// agent ([`thinking_until`]), whichever comes first; if either was set.
pub fn deadline() -> Option<Instant> {
    let process = match DEADLINE.load(Ordering::Relaxed) {
        0 => None,
        nanos => Some(epoch() + Duration::from_nanos(nanos)),
    };
    match (process, THINKING_UNTIL.get()) {
        (Some(p), own) => Some(before_or(p, own)),
        (None, own) => own,
    }
}

/// Whether the deadline ([`deadline`]) has passed.
pub fn expired() -> bool {
    deadline().is_some_and(|at| Instant::now() >= at)
}

/// Whether `own` (a deadline kept by one part of the program) or the
/// process's deadline has passed.
pub fn expired_by(own: Option<Instant>) -> bool {
    own.is_some_and(|at| Instant::now() >= at) || expired()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_s_own_deadline_holds_only_while_it_thinks() {
        let soon = Instant::now() + Duration::from_millis(1);
        std::thread::spawn(move || {
            assert!(!expired());
            let inside = thinking_until(soon, || {
                std::thread::sleep(Duration::from_millis(5));
                (expired(), deadline())
            });
            assert_eq!(inside, (true, Some(soon)));
            assert!(!expired(), "the thread's deadline ends with its thinking");
            let panicked = std::panic::catch_unwind(|| thinking_until(soon, || panic!("an agent failed")));
            assert!(panicked.is_err());
            assert!(!expired(), "and with a panic in it");
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_counter_sees_an_allocation() {
        // Other tests allocate and free meanwhile: only what this one holds
        // is sure, give or take each thread's drift.
        let block = std::hint::black_box(vec![1u8; 64 << 20]);
        assert!(in_use() >= 63 << 20, "{}", in_use());
        drop(block);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_memory("1G"), Ok(1 << 30));
        assert_eq!(parse_memory("512M"), Ok(512 << 20));
        assert_eq!(parse_memory("1.5g"), Ok(3 << 29));
        assert!(parse_memory("12").is_err());
        assert!(parse_memory("64M").is_err());
        assert!(parse_memory("lots").is_err());
        assert_eq!(show_bytes(1 << 30), "1 GiB");
        assert_eq!(show_bytes(300 << 20), "300 MiB");
    }
}
