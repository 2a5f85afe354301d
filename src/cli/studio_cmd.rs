//! `rpsdsl studio`: starts the web studio (see [`crate::studio`]) and prints
//! its link on the first line of stdout.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::studio;

/// The port when none is given.
const DEFAULT_PORT: u16 = 7420;

#[derive(Args)]
pub(crate) struct StudioArgs {
    /// The folder whose rules are edited and played; nothing outside it is read or written.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// The port to listen on (0: any free port), or ADDRESS:PORT on this machine's loopback.
    #[arg(long, default_value_t = DEFAULT_PORT.to_string(), value_name = "N")]
    port: String,
    /// Listen on this address instead of 127.0.0.1, e.g. `--listen 0.0.0.0` so
    /// that other devices can join a playtest. Anyone who can reach it can try
    /// the links; only the printed link and the seats' links get in.
    #[arg(long, value_name = "ADDR")]
    listen: Option<IpAddr>,
    /// The agents for seats no person takes, as for `play`; `rpsdsl agents`
    /// lists them [default: each game's own opponent, as for `play`].
    #[arg(long)]
    agents: Option<String>,
    /// The longest an agent may think for one decision, or train when it
    /// sits down, in seconds; past it, it answers with what it has.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    think: f64,
    /// The folder where the studio keeps its games and its key, so that a
    /// restart loses nothing [default: $XDG_DATA_HOME/rpsdsl/studio, or
    /// ~/.local/share/rpsdsl/studio].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
}

/// The data folder when `--data` is not given: the XDG data home's
/// `rpsdsl/studio`.
fn default_data() -> Option<PathBuf> {
    let home = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(home.join("rpsdsl").join("studio"))
}

pub(crate) fn studio(args: &StudioArgs) -> ExitCode {
    let addr = match address(args) {
        Ok(addr) => addr,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
    };
    if let Some(agents) = &args.agents
        && let Err(e) = crate::agents::spec::parse_spec(agents)
    {
        eprintln!("error: `--agents {agents}`: {e}");
        return ExitCode::from(2);
    }
    if !(args.think > 0.0 && args.think <= 86_400.0) {
        eprintln!(
            "error: `--think {}`: give a number of seconds from 0 to 86400",
            args.think
        );
        return ExitCode::from(2);
    }
    if !args.path.is_dir() {
        eprintln!(
            "error: `{}` is not a folder; give the folder of your rules",
            args.path.display()
        );
        return ExitCode::from(2);
    }
    let Some(data) = args.data.clone().or_else(default_data) else {
        eprintln!("error: there is no home folder to keep the studio's games in; give one with --data DIR");
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return ExitCode::from(1);
        }
    };
    let config = studio::Config {
        root: args.path.clone(),
        agents: args.agents.clone(),
        engine: super::setup::engine(),
        data: data.clone(),
        think: std::time::Duration::from_secs_f64(args.think),
    };
    let opened = match studio::open(config) {
        Ok(opened) => opened,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(1);
        }
    };
    for loss in opened.losses() {
        eprintln!("warning: {loss}");
    }
    let lost = !opened.losses().is_empty();
    let key = opened.key().to_string();
    let kept = opened.kept();
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        // The first line is the link, for people and for scripts.
        say!("http://{bound}/?key={key}");
        say!(
            "Open that link in a browser: edit and check the rules in {}, start games,",
            args.path.display()
        );
        say!("and share each person's seat link with them. Ctrl-C stops the studio.");
        if lost {
            say!(
                "Games are kept in {} ({kept} kept games coming back); this restart found losses, told above.",
                data.display()
            );
        } else {
            say!(
                "Games are kept in {} ({kept} kept games coming back); a restart loses none.",
                data.display()
            );
        }
        studio::serve(listener, opened).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot serve on {addr}: {e}");
            ExitCode::from(1)
        }
    }
}

/// Where to listen: `--listen` if given, else the loopback. An address in
/// `--port` must be a loopback one: only `--listen` opens the studio to
/// other machines, so that it is never done by accident.
fn address(args: &StudioArgs) -> Result<SocketAddr, String> {
    let port = &args.port;
    let (ip, port_number) = match port.parse::<u16>() {
        Ok(n) => (None, n),
        Err(_) => match port.parse::<SocketAddr>() {
            Ok(a) => (Some(a.ip()), a.port()),
            Err(_) => {
                return Err(format!(
                    "`--port {port}`: expected a port number, e.g. `--port {DEFAULT_PORT}`"
                ));
            }
        },
    };
    let ip = match (args.listen, ip) {
        (Some(listen), Some(other)) if listen != other => {
            return Err(format!(
                "`--port {port}` names another address than `--listen {listen}`; give the port alone"
            ));
        }
        (Some(listen), _) => listen,
        (None, Some(ip)) if !ip.is_loopback() => {
            return Err(format!(
                "`--port {port}` would let other machines reach the studio; say so with `--listen {ip} --port {port_number}`"
            ));
        }
        (None, Some(ip)) => ip,
        (None, None) => IpAddr::V4(Ipv4Addr::LOCALHOST),
    };
    let addr = SocketAddr::new(ip, port_number);
    debug_assert!(args.listen.is_some() || studio::is_loopback(&addr));
    Ok(addr)
}
