//! `insights-cli uploads migrate`: the real binary copies a local upload directory into a bucket of
//! moto's S3 server (configured through the standard AWS_* environment): every upload is there
//! byte for byte, other files are skipped, a second run copies nothing, a changed file is copied
//! again; without INSIGHTS_UPLOAD_URL, or with a store that does not answer, it refuses.

mod command;
#[path = "../../tests/api/support/s3.rs"]
#[allow(dead_code)]
mod s3;

use std::path::Path;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

/// Runs the binary with only the given environment (none of the caller's AWS or INSIGHTS settings).
async fn run(args: &[&str], env: &[(&str, String)]) -> command::Run {
    command::run(args, |command| {
        command.env_clear().envs(env.iter().map(|(k, v)| (*k, v.as_str())));
    })
    .await
}

fn counts(stdout: &str) -> [Option<u64>; 4] {
    ["copied", "already there", "skipped (not upload names)", "failed"].map(|label| command::figure(stdout, label))
}

async fn migrate(dir: &Path, env: &[(&str, String)]) -> String {
    run(&["uploads", "migrate", "--from", dir.to_str().unwrap()], env).await.succeeded()
}

#[tokio::test]
async fn uploads_are_copied_to_the_bucket_once_and_checked() {
    let server = s3::server();
    let bucket = server.bucket().await;
    let dir = tempfile::tempdir().unwrap();
    let id = || insights::ids::new_id();
    let files: Vec<(String, Vec<u8>)> = vec![
        (format!("{}.png", id()), PNG.to_vec()),
        (format!("{}.gif", id()), b"GIF89a...".to_vec()),
        (format!("{}.jpg", id()), vec![7; 70_000]),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    // Not uploads: left where they are.
    std::fs::write(dir.path().join("notes.txt"), "hello").unwrap();
    std::fs::create_dir(dir.path().join(format!("{}.png", id()))).unwrap();

    let mut env = server.aws_env();
    env.push(("INSIGHTS_UPLOAD_URL", format!("s3://{bucket}/migrated")));
    let first = migrate(dir.path(), &env).await;
    assert_eq!(counts(&first), [Some(3), Some(0), Some(2), Some(0)], "{first}");
    assert!(first.contains(&format!("s3://{bucket}/migrated")), "names the store: {first}");
    let mut expected: Vec<String> = files.iter().map(|(name, _)| format!("migrated/{name}")).collect();
    expected.sort();
    assert_eq!(server.keys(&bucket).await, expected, "every upload, and only uploads, in the bucket");
    for (name, bytes) in &files {
        let (stored, _) = server.object(&bucket, &format!("migrated/{name}")).await.unwrap();
        assert_eq!(&stored, bytes, "{name} byte for byte");
    }

    let second = migrate(dir.path(), &env).await;
    assert_eq!(counts(&second), [Some(0), Some(3), Some(2), Some(0)], "a second run copies nothing: {second}");

    // A file whose copy has another size is copied again.
    let (changed, _) = &files[2];
    std::fs::write(dir.path().join(changed), vec![8; 80_000]).unwrap();
    let third = migrate(dir.path(), &env).await;
    assert_eq!(counts(&third), [Some(1), Some(2), Some(2), Some(0)], "{third}");
    assert_eq!(server.object(&bucket, &format!("migrated/{changed}")).await.unwrap().0, vec![8; 80_000]);
}

#[tokio::test]
async fn without_an_object_store_or_when_it_does_not_answer_nothing_is_copied() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(format!("{}.png", insights::ids::new_id())), PNG).unwrap();
    let from = dir.path().to_str().unwrap();

    let command::Run { output, stdout, stderr } = run(&["uploads", "migrate", "--from", from], &[]).await;
    assert!(!output.status.success(), "stdout: {stdout}");
    assert!(stderr.contains("INSIGHTS_UPLOAD_URL"), "says what to set: {stderr}");

    let mut env = s3::server().aws_env();
    env.retain(|(key, _)| *key != "AWS_ENDPOINT_URL");
    env.push(("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{}", s3::free_port())));
    env.push(("INSIGHTS_UPLOAD_URL", "s3://gone/uploads".to_owned()));
    let command::Run { output, stdout, stderr } = run(&["uploads", "migrate", "--from", from], &env).await;
    assert!(!output.status.success(), "stdout: {stdout}");
    assert!(stderr.contains("nothing was copied") && stderr.contains("s3://gone/uploads"), "names the store: {stderr}");
    assert!(!stderr.contains(s3::SECRET_ACCESS_KEY), "no credentials shown: {stderr}");
}
