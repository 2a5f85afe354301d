//! The `rpsdsl` command: a thin shell over [`rpsdsl::cli`].

fn main() -> std::process::ExitCode {
    rpsdsl::cli::main()
}
