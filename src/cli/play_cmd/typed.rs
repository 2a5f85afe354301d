//! What a person typed at a prompt: a choice by number or name, or a key.

/// What the person typed at a prompt.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Typed {
    Choice(usize),
    Help,
    Log,
    Quit,
    Bad(String),
}

/// Reads one answer among the choices, each given by the names a person may
/// type for it (the first is the one shown). Where the choices are numbers,
/// a number typed is a value, not a position in the list.
pub(crate) fn parse_typed(line: &str, names: &[Vec<String>], numbers_are_values: bool) -> Typed {
    let text = line.trim();
    let lower = text.to_lowercase();
    match lower.as_str() {
        "" => return Typed::Bad("type the number of a choice, or its name".into()),
        "?" | "help" => return Typed::Help,
        "q" | "quit" | "exit" => return Typed::Quit,
        "log" => return Typed::Log,
        _ => {}
    }
    let exact: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].iter().any(|n| n.to_lowercase() == lower))
        .collect();
    if numbers_are_values {
        return match exact.first() {
            Some(&i) => Typed::Choice(i),
            None => Typed::Bad(format!("{text} is not one of the numbers you may choose")),
        };
    }
    if let Ok(n) = lower.parse::<usize>() {
        return if (1..=names.len()).contains(&n) {
            Typed::Choice(n - 1)
        } else {
            Typed::Bad(format!("there is no choice {n}; type 1 to {}", names.len()))
        };
    }
    // Equal labels (two alike pieces) name the same move: the first will do.
    if let Some(&i) = exact.first() {
        return Typed::Choice(i);
    }
    let starts: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].iter().any(|n| n.to_lowercase().starts_with(&lower)))
        .collect();
    let distinct = |list: &[usize]| {
        let mut shown: Vec<&str> = vec![];
        for &i in list {
            if !shown.contains(&names[i][0].as_str()) {
                shown.push(&names[i][0]);
            }
        }
        shown
    };
    match distinct(&starts).len() {
        1 => Typed::Choice(starts[0]),
        0 => {
            let near = names
                .iter()
                .flatten()
                .map(|n| (strsim::levenshtein(&n.to_lowercase(), &lower), n))
                .min()
                .filter(|(d, _)| *d <= 3)
                .map(|(_, n)| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            Typed::Bad(format!("`{text}` is not one of the choices{near}"))
        }
        _ => Typed::Bad(format!(
            "`{text}` could be {}; type more of it, or its number",
            distinct(&starts).join(" or ")
        )),
    }
}

/// The names among `names` that what was typed so far could be the start
/// of, ignoring case, each once, in the order shown: what Tab offers.
pub(crate) fn completions(names: &[String], typed: &str) -> Vec<String> {
    let typed = typed.trim_start().to_lowercase();
    let mut found: Vec<String> = vec![];
    for name in names {
        if name.to_lowercase().starts_with(&typed) && !found.contains(name) {
            found.push(name.clone());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&[&str]]) -> Vec<Vec<String>> {
        list.iter().map(|n| n.iter().map(|s| s.to_string()).collect()).collect()
    }

    #[test]
    fn typed_answers_by_number_name_kind_name_or_prefix() {
        let n = names(&[&["north", "alpha"], &["south"], &["northeast"], &["place a marker"]]);
        assert_eq!(parse_typed("2\n", &n, false), Typed::Choice(1));
        assert_eq!(parse_typed("South", &n, false), Typed::Choice(1));
        assert_eq!(parse_typed("ALPHA", &n, false), Typed::Choice(0));
        assert_eq!(parse_typed("pl", &n, false), Typed::Choice(3));
        assert_eq!(parse_typed(" ? ", &n, false), Typed::Help);
        assert_eq!(parse_typed("q", &n, false), Typed::Quit);
        assert_eq!(parse_typed("log", &n, false), Typed::Log);
        assert!(
            matches!(parse_typed("nor", &n, false), Typed::Bad(why) if why.contains("could be north or northeast"))
        );
        assert!(matches!(parse_typed("9", &n, false), Typed::Bad(why) if why.contains("no choice 9")));
        assert!(matches!(parse_typed("sotuh", &n, false), Typed::Bad(why) if why.contains("did you mean `south`")));
        assert!(matches!(parse_typed("", &n, false), Typed::Bad(_)));
        // Where the choices are numbers, a number is a value.
        let v = names(&[&["3"], &["1"]]);
        assert_eq!(parse_typed("1", &v, true), Typed::Choice(1));
        assert!(matches!(parse_typed("2", &v, true), Typed::Bad(_)));
        // Alike pieces share a label: the first is taken.
        let alike = names(&[&["Token"], &["Token"]]);
        assert_eq!(parse_typed("tok", &alike, false), Typed::Choice(0));
    }

    #[test]
    fn tab_offers_the_names_that_start_with_what_was_typed() {
        let shown: Vec<String> = [
            "ruby",
            "pearl",
            "scarab",
            "claim the face-up token",
            "claim the face-down token",
            "ruby",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(completions(&shown, "r"), ["ruby"], "each name once");
        assert_eq!(completions(&shown, "SC"), ["scarab"], "any case");
        assert_eq!(
            completions(&shown, "claim the face-"),
            ["claim the face-up token", "claim the face-down token"],
            "names with spaces"
        );
        assert_eq!(completions(&shown, "").len(), 5, "all of them on an empty line");
        assert!(completions(&shown, "x").is_empty());
    }
}
