//! Hostile inputs to the files the runner reads and writes (issue 26):
//! known-failure lists and configurations that are not UTF-8 or end their
//! lines with a carriage return alone, exports over links or failing half
//! way, and suite folders missing or holding a named pipe. Each is a named error, and
//! nothing that was on the disk before is lost.

mod fakes;

use fakes::run_cli;
use hcl_conformance_format::suite::load_suite;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An empty folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hcl-conformance-hostile-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn suite_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite")).to_path_buf()
}

/// A suite folder in `dir`: `requirements.jsonl` and one case file of ten
/// cases, `conversion/bool-and-number.yaml`, whose text `edit` may change.
fn small_suite(dir: &Path, edit: impl Fn(String) -> String) -> PathBuf {
    let suite = dir.join("suite");
    std::fs::create_dir_all(suite.join("conversion")).unwrap();
    std::fs::copy(
        suite_dir().join("requirements.jsonl"),
        suite.join("requirements.jsonl"),
    )
    .unwrap();
    let file = "conversion/bool-and-number.yaml";
    let text = std::fs::read_to_string(suite_dir().join(file)).unwrap();
    std::fs::write(suite.join(file), edit(text)).unwrap();
    suite
}

/// The small suite with its last case renamed `name`.
fn renaming_the_last_case(name: String) -> impl Fn(String) -> String {
    move |text| {
        let last = text.rfind("- name: ").unwrap() + "- name: ".len();
        let end = last + text[last..].find('\n').unwrap();
        format!("{}{name}{}", &text[..last], &text[end..])
    }
}

/// Every file below `dir` with its bytes, and every folder, by path.
fn contents(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            let bytes = e
                .file_type()
                .is_file()
                .then(|| std::fs::read(e.path()).unwrap());
            (e.path().strip_prefix(dir).unwrap().to_path_buf(), bytes)
        })
        .collect()
}

/// The names in `dir` (hidden ones too).
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The ids of the first `n` cases of a suite file.
fn ids_of(file: &str, n: usize) -> Vec<String> {
    let (code, text) = run_cli(&["list", &format!("{file}::")]);
    assert_eq!(code, Some(0), "{text}");
    text.lines().take(n).map(str::to_string).collect()
}

#[test]
fn a_list_that_is_not_utf8_is_refused_by_write_failures_and_left_as_it_was() {
    let dir = scratch("latin1-list");
    let list = dir.join("known.txt");
    let shown = list.display().to_string();
    // Ten reasons for cases the run does not select: kept when the list is
    // written again, if the list can be read.
    let ids = ids_of("types/equality", 10);
    assert_eq!(ids.len(), 10);
    let body: String = ids
        .iter()
        .map(|id| format!("{id} my own reason\n"))
        .collect();
    let write = |comment: &[u8]| {
        let mut bytes = b"# known failures, ".to_vec();
        bytes.extend_from_slice(comment);
        bytes.extend_from_slice(format!("\n{body}").as_bytes());
        std::fs::write(&list, &bytes).unwrap();
        bytes
    };
    let run = || run_cli(&["--write-failures", &shown, "unification/tuples"]);
    // One Latin-1 byte (é) at offset 21 of line 1.
    let latin1 = write(b"caf\xe9");
    let (code, text) = run();
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "{shown}:1: the byte at offset 21 (0xE9) is not UTF-8"
        )),
        "{text}"
    );
    assert_eq!(
        std::fs::read(&list).unwrap(),
        latin1,
        "the list was changed"
    );
    // In UTF-8, the same list is read, and its ten reasons are kept.
    write("café".as_bytes());
    let (code, text) = run();
    assert_eq!(code, Some(0), "{text}");
    let kept = std::fs::read_to_string(&list).unwrap();
    assert_eq!(kept.matches(" my own reason\n").count(), 10, "{kept}");
    assert!(kept.contains("# known failures, café\n"), "{kept}");
    // Nothing is left beside the list.
    assert_eq!(names_in(&dir), ["known.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn carriage_returns_alone_and_bytes_that_are_not_utf8_are_named_by_every_reader_of_a_list() {
    let dir = scratch("cr-list");
    let ids = ids_of("unification/tuples", 3);
    let lines: Vec<String> = ids.iter().map(|id| format!("{id} a reason")).collect();
    let cr_only = dir.join("cr.txt");
    let cr_text = format!("# Suite version 1.0.0\r{}\r", lines.join("\r"));
    std::fs::write(&cr_only, &cr_text).unwrap();
    let cr = cr_only.display().to_string();
    let named = |text: &str| {
        text.contains(&format!(
            "{cr}:1: the byte at offset 21 is a carriage return without a line feed after it"
        ))
    };
    // Read as expected failures, as the list to keep reasons from, and as
    // the list `changes --since` reads the version and ids of.
    for args in [
        vec!["--expect-failures", &cr, "unification/tuples"],
        vec!["--write-failures", &cr, "unification/tuples"],
        vec!["changes", "--since", &cr],
    ] {
        let (code, text) = run_cli(&args);
        assert_eq!(code, Some(2), "{args:?}: {text}");
        assert!(named(&text), "{args:?}: {text}");
    }
    assert_eq!(std::fs::read_to_string(&cr_only).unwrap(), cr_text);
    // CRLF line endings are lines: the same list is read.
    let crlf = dir.join("crlf.txt");
    std::fs::write(&crlf, cr_text.replace('\r', "\r\n")).unwrap();
    let (code, text) = run_cli(&["changes", "--since", &crlf.display().to_string()]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("From suite version 1.0.0"), "{text}");
    // A matrix configuration that is not UTF-8, with the byte.
    let config = dir.join("matrix.toml");
    std::fs::write(&config, b"[one]\ncommand = \"caf\xe9\"\n").unwrap();
    let config = config.display().to_string();
    let out = dir.join("matrix-out").display().to_string();
    let (code, text) = run_cli(&["matrix", "--config", &config, "--out", &out]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "{config}:2: the byte at offset 20 (0xE9) is not UTF-8"
        )),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_does_not_write_through_links() {
    let dir = scratch("export-links");
    let suite = small_suite(&dir, |text| text);
    let suite = suite.display().to_string();
    let out = dir.join("out");
    let export = |out: &Path| {
        run_cli(&[
            "export",
            "--suite",
            &suite,
            "--out",
            &out.display().to_string(),
        ])
    };
    let (code, text) = export(&out);
    assert_eq!(code, Some(0), "{text}");
    // index.json links to a file outside the export.
    let target = dir.join("precious.json");
    std::fs::write(&target, "{\"precious\": true}\n").unwrap();
    let index = out.join("index.json");
    std::fs::remove_file(&index).unwrap();
    std::os::unix::fs::symlink(&target, &index).unwrap();
    let before = contents(&out);
    let (code, text) = export(&out);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!("{} is a symbolic link", index.display())),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "{\"precious\": true}\n"
    );
    assert_eq!(contents(&out), before);
    // The export folder itself a link.
    std::fs::remove_file(&index).unwrap();
    let (code, text) = export(&out);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("holds files but no export"), "{text}");
    let linked = dir.join("linked");
    std::os::unix::fs::symlink(&out, &linked).unwrap();
    let before = contents(&out);
    let (code, text) = export(&linked);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!("{} is a symbolic link", linked.display())),
        "{text}"
    );
    assert_eq!(contents(&out), before);
    assert_eq!(names_in(&dir), ["linked", "out", "precious.json", "suite"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exports the small suite to `out`, then `edited`'s: it fails, leaving
/// `out` byte for byte as the first export wrote it and nothing beside
/// it; the error is returned.
fn export_fails_and_leaves_the_earlier_export_whole(
    dir: &Path,
    out: &Path,
    edited: &Path,
) -> String {
    let first = small_suite(&dir.join("first"), |text| text);
    let export = |suite: &Path| {
        run_cli(&[
            "export",
            "--suite",
            &suite.display().to_string(),
            "--out",
            &out.display().to_string(),
        ])
    };
    let (code, text) = export(&first);
    assert_eq!(code, Some(0), "{text}");
    let written = contents(out);
    assert_eq!(written.values().filter(|b| b.is_some()).count(), 11);
    let folder = out.parent().unwrap();
    let beside = names_in(folder);
    let (code, text) = export(edited);
    assert_eq!(code, Some(2), "{text}");
    assert_eq!(contents(out), written, "{text}");
    assert_eq!(names_in(folder), beside, "{text}");
    text
}

#[test]
fn a_case_name_too_long_for_a_file_name_is_refused_before_anything_is_written() {
    let dir = scratch("export-long-name");
    let long = "a".repeat(300);
    let edited = small_suite(&dir.join("edited"), renaming_the_last_case(long));
    let out = dir.join("out");
    let text = export_fails_and_leaves_the_earlier_export_whole(&dir, &out, &edited);
    let file = edited.join("conversion/bool-and-number.yaml");
    assert!(
        text.contains(&format!("{}:", file.display()))
            && text.contains("would be 305 bytes long")
            && text.contains("shorten the case's name"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_that_fails_half_way_leaves_the_earlier_export_whole() {
    // The documents of a case named with 240 characters have a path longer
    // than the system takes (4096 bytes) in this deep folder, those of the
    // other cases not: the new export fails at its last document.
    let dir = scratch("export-half-way");
    let mut deep = dir.join("deep");
    while deep.as_os_str().len() < 3880 {
        let room = 3880 - deep.as_os_str().len();
        deep.push("d".repeat(room.clamp(1, 200)));
    }
    std::fs::create_dir_all(&deep).unwrap();
    let edited = small_suite(&dir.join("edited"), renaming_the_last_case("z".repeat(240)));
    let out = deep.join("out");
    let text = export_fails_and_leaves_the_earlier_export_whole(&dir, &out, &edited);
    assert!(
        text.contains(&format!("{}.json: File name too long", "z".repeat(240)))
            && text.contains("left as it was"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_suite_file_that_is_no_regular_file_or_not_utf8_text_is_named_and_never_opened() {
    let dir = scratch("suite-files");
    let suite = small_suite(&dir, |text| text);
    let pipe = suite.join("conversion/x.yaml");
    let path = std::ffi::CString::new(pipe.display().to_string()).unwrap();
    // SAFETY: a plain system call with a valid path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    std::fs::write(suite.join("conversion/latin1.yaml"), b"summary: caf\xe9\n").unwrap();
    std::fs::write(
        suite.join("conversion/mac.yaml"),
        "spec: spec.md\rsummary: x\r",
    )
    .unwrap();
    // Opening the pipe would wait for a writer: the loader must not.
    let (sender, receiver) = std::sync::mpsc::channel();
    let folder = suite.clone();
    std::thread::spawn(move || {
        let errors = load_suite(&folder).err().unwrap_or_default();
        let _ = sender.send(errors.iter().map(|e| e.to_string()).collect::<Vec<_>>());
    });
    let errors = receiver
        .recv_timeout(Duration::from_secs(20))
        .expect("the loader returns, without opening the pipe");
    let at = |name: &str| suite.join("conversion").join(name).display().to_string();
    assert_eq!(
        errors,
        [
            format!(
                "{}:1: the byte at offset 12 (0xE9) is not UTF-8; the file must be UTF-8 text: \
                 re-save it as UTF-8 (iconv -f latin1 -t utf-8 converts Latin-1)",
                at("latin1.yaml")
            ),
            format!(
                "{}:1: the byte at offset 13 is a carriage return without a line feed after it; \
                 lines end in LF or CRLF, not CR alone: convert the line endings (tr '\\r' '\\n')",
                at("mac.yaml")
            ),
            format!(
                "{}: not a regular file (a named pipe, socket or device); the suite is read from \
                 plain files only: replace it with a file, or remove it",
                at("x.yaml")
            ),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_suite_folder_is_named_with_what_to_do() {
    let missing = scratch("missing-suite").join("no-such-folder");
    let (code, text) = run_cli(&["list", "--suite", &missing.display().to_string()]);
    assert_eq!(code, Some(2), "{text}");
    assert_eq!(
        text.trim(),
        format!(
            "hcl-conformance: {}: there is no folder here; give the suite folder's path with \
             --suite DIR, or leave --suite out to run the suite built into the runner",
            missing.display()
        )
    );
}
