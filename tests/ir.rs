//! IR golden tests: each small file in `tests/ir/` shows one statement,
//! expression or declaration form; its disassembly (`rpsdsl check
//! --dump-ir`) is kept as a snapshot in `snapshots/ir__NAME.snap`. A compiler
//! change shows up here as a small diff per construct, before any whole-game
//! transcript moves.

use rpsdsl::check::{FsLoader, check_file};

#[test]
fn every_construct_compiles_to_its_golden_program() {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir("tests/ir")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    assert!(files.len() >= 80, "tests/ir holds one game per construct");
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        for path in &files {
            let checked = match check_file(path, &FsLoader) {
                Ok(checked) => checked,
                Err(failed) => panic!(
                    "{}:\n{}",
                    path.display(),
                    rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
                ),
            };
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            insta::with_settings!({ input_file => path }, {
                insta::assert_snapshot!(format!("ir__{name}"), rpsdsl::ir::disassemble(&checked.def));
            });
        }
    });
}
