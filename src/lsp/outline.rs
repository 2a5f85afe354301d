//! The shape of a document: its outline (document symbols), the colour of
//! each word by what it names (semantic tokens), and where it folds.

use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, FoldingRange, FoldingRangeKind, FoldingRangeParams,
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensParams, SemanticTokensResult, SymbolKind,
};

use super::index::{Meaning, NameKind};
use super::position;
use super::server::Server;
use crate::syntax::tokens::TokenKind;

/// The token types, in the legend's order: a token's type is its index.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::COMMENT,
    SemanticTokenType::NUMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::ENUM,
    SemanticTokenType::TYPE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::NAMESPACE,
];

/// The one modifier: the word declares the name.
const DECLARATION: u32 = 1;

/// What the server colours, as it tells the editor at the start.
pub(super) fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: vec![SemanticTokenModifier::DECLARATION],
    }
}

fn type_of(kind: NameKind) -> SemanticTokenType {
    match kind {
        NameKind::Kind | NameKind::OptionValue | NameKind::Seat => SemanticTokenType::ENUM_MEMBER,
        NameKind::KindSet | NameKind::Group => SemanticTokenType::ENUM,
        NameKind::PieceType => SemanticTokenType::TYPE,
        NameKind::Zone | NameKind::Slot | NameKind::Board | NameKind::Space | NameKind::Option => {
            SemanticTokenType::PROPERTY
        }
        NameKind::Procedure | NameKind::Hook => SemanticTokenType::FUNCTION,
        NameKind::Trigger | NameKind::Phase | NameKind::Step | NameKind::Section => SemanticTokenType::NAMESPACE,
        NameKind::Parameter => SemanticTokenType::PARAMETER,
        NameKind::Var
        | NameKind::Constant
        | NameKind::Table
        | NameKind::ScoreTerm
        | NameKind::Local
        | NameKind::Decision => SemanticTokenType::VARIABLE,
    }
}

fn symbol_kind(kind: NameKind) -> SymbolKind {
    match kind {
        NameKind::Kind | NameKind::OptionValue | NameKind::Seat => SymbolKind::ENUM_MEMBER,
        NameKind::KindSet | NameKind::Group => SymbolKind::ENUM,
        NameKind::PieceType => SymbolKind::CLASS,
        NameKind::Option => SymbolKind::PROPERTY,
        NameKind::Constant | NameKind::Table => SymbolKind::CONSTANT,
        NameKind::Zone | NameKind::Slot | NameKind::Space => SymbolKind::FIELD,
        NameKind::Board => SymbolKind::STRUCT,
        NameKind::Procedure | NameKind::Hook => SymbolKind::FUNCTION,
        NameKind::Trigger => SymbolKind::EVENT,
        NameKind::Phase | NameKind::Step | NameKind::Section => SymbolKind::MODULE,
        NameKind::Var | NameKind::ScoreTerm | NameKind::Parameter | NameKind::Local | NameKind::Decision => {
            SymbolKind::VARIABLE
        }
    }
}

pub(super) fn symbols(server: &Server, params: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
    let (_, analysis) = server.document(&params.text_document.uri)?;
    let file = &analysis.index.files[analysis.file];
    #[allow(deprecated)] // `deprecated` is a field LSP keeps for old clients
    let symbols = file
        .outline
        .iter()
        .map(|(name, kind, range, selection)| DocumentSymbol {
            name: name.clone(),
            detail: Some(kind.describe().to_string()),
            kind: symbol_kind(*kind),
            tags: None,
            deprecated: None,
            range: position::range(&file.text, range.start, range.end),
            selection_range: position::range(&file.text, selection.start, selection.end),
            children: None,
        })
        .collect();
    Some(DocumentSymbolResponse::Nested(symbols))
}

pub(super) fn semantic_tokens(server: &Server, params: SemanticTokensParams) -> Option<SemanticTokensResult> {
    let (_, analysis) = server.document(&params.text_document.uri)?;
    let index = &analysis.index;
    let file = &index.files[analysis.file];
    if file.path.extension().is_some_and(|e| e == "toml") {
        return None;
    }
    let mut data = vec![];
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for token in &file.tokens {
        let text = token.text(&file.text);
        let (kind, declares) = match token.kind {
            TokenKind::Comment => (SemanticTokenType::COMMENT, false),
            TokenKind::Str => (SemanticTokenType::STRING, false),
            TokenKind::Rhai | TokenKind::Mark => continue,
            TokenKind::Word if text.as_bytes()[0].is_ascii_digit() => (SemanticTokenType::NUMBER, false),
            TokenKind::Word => match index.meaning(analysis.file, token) {
                Meaning::Keyword => (SemanticTokenType::KEYWORD, false),
                Meaning::Nothing => continue,
                Meaning::Local(_, n) => {
                    let binder = &file.binders[n];
                    (type_of(binder.kind), binder.at.start == token.start)
                }
                Meaning::Global(name) => {
                    let declared = &index.globals[&name];
                    let declares = declared
                        .iter()
                        .any(|d| d.at.file == analysis.file && d.at.range.start == token.start);
                    (type_of(declared[0].kind), declares)
                }
            },
        };
        let start = position::position(&file.text, token.start);
        let length: u32 = text.chars().map(|c| c.len_utf16() as u32).sum();
        let delta_line = start.line - last_line;
        let delta_start = if delta_line == 0 {
            start.character - last_start
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: TYPES.iter().position(|t| *t == kind).unwrap_or(0) as u32,
            token_modifiers_bitset: if declares { DECLARATION } else { 0 },
        });
        (last_line, last_start) = (start.line, start.character);
    }
    Some(SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data }))
}

pub(super) fn folding(server: &Server, params: FoldingRangeParams) -> Option<Vec<FoldingRange>> {
    let (_, analysis) = server.document(&params.text_document.uri)?;
    let file = &analysis.index.files[analysis.file];
    let line = |at: usize| position::position(&file.text, at).line;
    let mut ranges = vec![];
    let mut open = vec![];
    let mut comments: Option<(u32, u32)> = None;
    let fold = |start: u32, end: u32, kind: Option<FoldingRangeKind>| FoldingRange {
        start_line: start,
        end_line: end,
        kind,
        ..FoldingRange::default()
    };
    for token in &file.tokens {
        let (start, end) = (line(token.start), line(token.end));
        match (token.kind, token.text(&file.text)) {
            (TokenKind::Mark, "{") => open.push(start),
            (TokenKind::Mark, "}") => {
                if let Some(first) = open.pop()
                    && end > first + 1
                {
                    ranges.push(fold(first, end - 1, Some(FoldingRangeKind::Region)));
                }
            }
            (TokenKind::Rhai, _) if end > start + 1 => {
                ranges.push(fold(start, end - 1, Some(FoldingRangeKind::Region)))
            }
            _ => {}
        }
        // Runs of comment lines fold as one.
        if token.kind == TokenKind::Comment {
            comments = match comments {
                Some((first, last)) if start == last + 1 => Some((first, start)),
                Some((first, last)) => {
                    if last > first {
                        ranges.push(fold(first, last, Some(FoldingRangeKind::Comment)));
                    }
                    Some((start, start))
                }
                None => Some((start, start)),
            };
        }
    }
    if let Some((first, last)) = comments
        && last > first
    {
        ranges.push(fold(first, last, Some(FoldingRangeKind::Comment)));
    }
    Some(ranges)
}
