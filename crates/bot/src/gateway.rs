//! The gateway transport (`arbiter serve` with `DISCORD_TOKEN`): a serenity
//! client whose interaction events go through the same dispatcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serenity::all::{
    Client, Command as DCommand, Context, EventHandler, GatewayIntents, GuildId, Interaction, Ready,
};
use serenity::async_trait;
use tracing::Instrument;

use super::{Bot, Defer, InFlight, discord};

/// How the process takes part in sharding (serenity's conventions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharding {
    /// As many shards as Discord recommends, all in this process.
    Auto,
    /// `total` shards, all in this process.
    Total(u32),
    /// Shards `first..=last` of `total`, for several processes.
    Range { first: u32, last: u32, total: u32 },
}

#[derive(Debug, Clone)]
pub struct GatewayConfig {
    pub token: String,
    /// Register commands to this guild only (instant; for development).
    pub guild_id: Option<u64>,
    pub sharding: Sharding,
    /// On shutdown: how long interactions in flight may take to finish.
    pub drain: std::time::Duration,
}

struct Handler {
    bot: Arc<Bot>,
    in_flight: Arc<InFlight>,
    guild_id: Option<u64>,
    registered: AtomicBool,
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(user = %ready.user.name, shard = ?ready.shard, guilds = ready.guilds.len(), "connected to the gateway");
        // Register once per process (the first shard to be ready).
        if self.registered.swap(true, Ordering::AcqRel) {
            return;
        }
        let defs = discord::definitions(&self.bot.app);
        let n = defs.len();
        let result = match self.guild_id {
            Some(g) => GuildId::new(g)
                .set_commands(&ctx.http, defs)
                .await
                .map(|_| ()),
            None => DCommand::set_global_commands(&ctx.http, defs)
                .await
                .map(|_| ()),
        };
        match result {
            Ok(()) => tracing::info!(commands = n, guild = self.guild_id, "commands registered"),
            Err(e) => {
                let id = super::error_id();
                tracing::error!(error_id = %id, "command registration failed: {e}");
                self.registered.store(false, Ordering::Release);
            }
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let _guard = self.in_flight.enter();
        let request = match discord::to_request(&interaction) {
            Ok(r) => r,
            Err(reply) => {
                let _ = respond(&ctx, &interaction, &discord::response_body(&reply)).await;
                return;
            }
        };
        let span = super::http::interaction_span(&request);
        let started = Instant::now();
        let acknowledgement = self.bot.acknowledgement(&request);
        async {
            match acknowledgement {
                Defer::No => {
                    let reply = self.bot.handle(&request).await;
                    if let Err(e) =
                        respond(&ctx, &interaction, &discord::response_body(&reply)).await
                    {
                        let id = super::error_id();
                        tracing::error!(error_id = %id, "cannot send the reply: {e}");
                    } else if let Err(e) =
                        discord::send_picture(&ctx.http, interaction.token(), &reply).await
                    {
                        tracing::warn!("cannot send the picture: {e}");
                    }
                }
                deferred => {
                    let ephemeral = deferred == Defer::Ephemeral;
                    if let Err(e) = respond(&ctx, &interaction, &discord::defer(ephemeral)).await {
                        tracing::warn!("cannot defer: {e}");
                        return;
                    }
                    let reply = self.bot.handle(&request).await;
                    let token = interaction.token();
                    discord::deliver_or_report(&ctx.http, token, &reply, ephemeral).await;
                }
            }
            super::http::log_answered(started, acknowledgement != Defer::No);
        }
        .instrument(span)
        .await;
    }
}

/// Sends an interaction's response, as serialized (no file: an immediate
/// response carries none, its picture follows).
async fn respond(
    ctx: &Context,
    interaction: &Interaction,
    response: &impl serde::Serialize,
) -> serenity::Result<()> {
    if !matches!(
        interaction,
        Interaction::Command(_)
            | Interaction::Autocomplete(_)
            | Interaction::Component(_)
            | Interaction::Modal(_)
    ) {
        return Ok(());
    }
    ctx.http
        .create_interaction_response(interaction.id(), interaction.token(), response, Vec::new())
        .await
}

/// Connects and serves until `shutdown` completes; then closes the shards
/// and waits (up to `config.drain`) for interactions already being answered.
pub async fn run(
    bot: Arc<Bot>,
    config: GatewayConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), serenity::Error> {
    // No privileged intent: interactions arrive without any, and "Judge
    // this board" receives the target message's content in the payload.
    let in_flight = Arc::new(InFlight::default());
    let handler = Handler {
        bot,
        in_flight: in_flight.clone(),
        guild_id: config.guild_id,
        registered: AtomicBool::new(false),
    };
    let mut client = Client::builder(&config.token, GatewayIntents::empty())
        .event_handler(handler)
        .await?;
    let manager = client.shard_manager.clone();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down the gateway shards");
        manager.shutdown_all().await;
    });
    let result = match config.sharding {
        Sharding::Auto => client.start_autosharded().await,
        Sharding::Total(n) => client.start_shards(n).await,
        Sharding::Range { first, last, total } => {
            client.start_shard_range(first..last + 1, total).await
        }
    };
    in_flight.drain(config.drain).await;
    result
}
