//! The baseline of `benches/build-cost.sh`: a crate that decodes and encodes one message with
//! serde and serde_json, and nothing else.

#[derive(serde::Deserialize, serde::Serialize, Debug)]
struct Event {
    schema: String,
    #[serde(rename = "runId")]
    run_id: String,
    payload: serde_json::Value,
}

fn main() {
    let event: Event = serde_json::from_str(
        r#"{"schema": "paperclip.prp.event.v1", "runId": "run-1", "payload": {}}"#,
    )
    .expect("valid JSON");
    println!("{}", serde_json::to_string(&event).expect("serialisable"));
}
