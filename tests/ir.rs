//! IR golden tests: each small file in `tests/ir/` shows one statement or
//! expression form; its disassembly (`rpsdsl check --dump-ir`) is kept as a
//! snapshot in `snapshots/ir__NAME.snap`. A compiler change shows up here as
//! a small diff per construct, before any whole-game transcript moves.

use rpsdsl::check::{FsLoader, check_file};

#[test]
fn every_construct_compiles_to_its_golden_program() {
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("ir/*.rules", |path| {
            let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
            let checked = match check_file(relative, &FsLoader) {
                Ok(checked) => checked,
                Err(failed) => panic!(
                    "{}:\n{}",
                    relative.display(),
                    rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
                ),
            };
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            insta::assert_snapshot!(format!("ir__{name}"), rpsdsl::ir::disassemble(&checked.def));
        });
    });
}
