//! Reading inputs: a path, or `-` for standard input, up to the decoder's document limit.

use prp_types::decode::MAX_DOCUMENT_BYTES;
use prp_types::{Code, Issue};
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// Whether `path` names standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How an input is named in reports (a path that is not UTF-8 is shown lossily).
pub fn name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The issue for an input that cannot be read.
pub fn io_issue(e: &io::Error) -> Issue {
    Issue::new(Code::IoError, "", format!("cannot read the input: {e}"))
}

/// Opens an input for reading line by line.
pub fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, Issue> {
    // Large reads: a stream of small documents is otherwise mostly system calls.
    const CAPACITY: usize = 256 * 1024;
    if is_stdin(path) {
        return Ok(Box::new(BufReader::with_capacity(CAPACITY, io::stdin())));
    }
    let file = std::fs::File::open(path).map_err(|e| io_issue(&e))?;
    Ok(Box::new(BufReader::with_capacity(CAPACITY, file)))
}

/// Opens an input for large reads of its own (no buffer between).
pub fn open_unbuffered(path: &Path) -> Result<Box<dyn io::Read + Send>, Issue> {
    if is_stdin(path) {
        return Ok(Box::new(io::stdin()));
    }
    let file = std::fs::File::open(path).map_err(|e| io_issue(&e))?;
    Ok(Box::new(file))
}

/// The bytes of one document, or what stops it from being checked: `io_error`, or `too_large`
/// naming the input's real size (the part past the limit is counted, never kept).
pub fn read_document(path: &Path) -> Result<Vec<u8>, Issue> {
    let mut reader = open(path)?;
    let mut bytes = Vec::new();
    let limit = MAX_DOCUMENT_BYTES as u64;
    (&mut reader)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_issue(&e))?;
    if bytes.len() as u64 > limit {
        let rest = io::copy(&mut reader, &mut io::sink()).map_err(|e| io_issue(&e))?;
        return Err(prp_types::decode::too_large(bytes.len() as u64 + rest));
    }
    Ok(bytes)
}
