//! `insights-cli audit`: the audit trail with the web app's filters, as a table or as the web
//! app's CSV export. The read is recorded in the trail, as the command's.

use clap::Args;
use insights::{
    Config,
    audit::{
        export::{HEADER, cells, instant},
        queries::{self, EventFilter},
    },
};

use crate::table::Table;

/// Events read from the database at a time.
const CHUNK: i64 = 1000;

#[derive(Args)]
pub struct AuditArgs {
    #[command(flatten)]
    config: Config,
    /// From this day (yyyy-mm-dd) or instant (RFC 3339) on.
    #[arg(long)]
    since: Option<String>,
    /// Until this day (inclusive) or instant (exclusive).
    #[arg(long)]
    until: Option<String>,
    /// The acting user's id.
    #[arg(long)]
    actor: Option<String>,
    /// The entity type (article, topic, channel, channel_subscription, ...), or TYPE:ID for one.
    #[arg(long)]
    entity: Option<String>,
    /// The GraphQL operation, REST endpoint or command (editArticle, "GET /export/audit.csv", "cli firms import").
    #[arg(long)]
    action: Option<String>,
    /// At most this many events (newest first).
    #[arg(long, default_value_t = 100)]
    limit: u64,
    /// Print CSV (the web app's export: every column, formula-escaped, no byte-order mark).
    #[arg(long)]
    csv: bool,
}

pub async fn audit(args: AuditArgs) -> anyhow::Result<()> {
    let (entity_type, entity_id) = match args.entity.as_deref().map(|e| e.split_once(':').map_or((e, None), |(t, id)| (t, Some(id)))) {
        Some((entity_type, entity_id)) => (Some(entity_type.to_owned()), entity_id.map(str::to_owned)),
        None => (None, None),
    };
    let filter = EventFilter {
        actor_id: args.actor.clone(),
        entity_type,
        entity_id,
        action: args.action.clone(),
        from: instant("since", args.since.as_deref(), false).map_err(|e| anyhow::anyhow!("--since: {}", e.message()))?,
        to: instant("until", args.until.as_deref(), true).map_err(|e| anyhow::anyhow!("--until: {}", e.message()))?,
    };
    let pool = crate::connect(&args.config).await?;
    crate::apply_migrations(&pool).await?;
    queries::record(&pool, None, None, None, None, &serde_json::json!({ "filters": filter })).await?;

    let mut csv = args.csv.then(|| csv::Writer::from_writer(std::io::stdout()));
    let mut table = Table::new(&["Time", "Actor", "Action", "Entity", "Changes"]);
    if let Some(csv) = &mut csv {
        csv.write_record(HEADER)?;
    }
    let (mut after, mut printed) = (None, 0u64);
    while printed < args.limit {
        let chunk = CHUNK.min((args.limit - printed) as i64);
        let rows = queries::events_before(&pool, &filter, after, chunk).await?;
        for row in &rows {
            let cells = cells(row);
            match &mut csv {
                Some(csv) => csv.write_record(cells.iter().map(|cell| insights::csv_files::spreadsheet_safe(cell).into_owned()))?,
                None => {
                    let actor = [&cells[2], &cells[3], &cells[5]].iter().filter(|c| !c.is_empty()).map(|c| c.as_str()).collect::<Vec<_>>();
                    let actor = if actor.is_empty() { cells[1].clone() } else { actor.join(", ") };
                    let entity = [&cells[9], &cells[10]].iter().filter(|c| !c.is_empty()).map(|c| c.as_str()).collect::<Vec<_>>().join(" ");
                    let changes = [&cells[11], &cells[12], &cells[13]].iter().filter(|c| !c.is_empty()).map(|c| c.as_str()).collect::<Vec<_>>().join(" ");
                    table.row(vec![cells[0].clone(), actor, cells[8].clone(), entity, changes]);
                }
            }
        }
        printed += rows.len() as u64;
        match rows.last() {
            Some(last) if rows.len() as i64 == chunk => after = Some((last.occurred_at, last.event_id)),
            _ => break,
        }
    }
    match &mut csv {
        Some(csv) => csv.flush()?,
        None if printed == 0 => println!("No events match."),
        None => table.print(),
    }
    Ok(())
}
