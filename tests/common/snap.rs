//! Snapshots: every test keeps its snapshots in the top-level `snapshots/`
//! folder under the bare snapshot name.

/// `insta::assert_snapshot!(name, value)` with the project's settings.
///
/// A macro, not a function, so that insta records the calling test file
/// and expression, as the existing snapshots' headers do.
#[allow(unused_macros)]
macro_rules! assert_snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[allow(unused_imports)]
pub(crate) use assert_snapshot;
