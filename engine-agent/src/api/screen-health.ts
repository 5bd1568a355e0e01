import type { ScreenReport, ScreenView } from '@erasure/shared';

/**
 * What the kiosk shell's watchdog last said about the machine's own screen (issue 34): its status,
 * every reload counted with the last one's reason, and the renderer's memory next to the agent's.
 * Plain state; the controller passes the clock and the agent's memory in, and tells its listeners.
 */
export class ScreenHealth {
  private view_: ScreenView | undefined;

  /** Records one report of the shell. */
  report(r: ScreenReport, at: string, agentRssBytes: number): void {
    const before = this.view_;
    const reloaded = r.status === 'reloaded';
    this.view_ = {
      status: r.status,
      reported_at: at,
      reloads: (before?.reloads ?? 0) + (reloaded ? 1 : 0),
      ...(reloaded ? { last_reload: { reason: r.reason ?? 'no reason given', at } } : before?.last_reload ? { last_reload: before.last_reload } : {}),
      // A report without a memory figure keeps the last one: memory comes about once a minute.
      // Which screens show is kept from the last `showing` report until the next one.
      ...(r.status === 'showing' && r.views ? { views: r.views } : r.status === 'showing' || !before?.views ? {} : { views: before.views }),
      ...(r.renderer_rss_bytes !== undefined ? { renderer_rss_bytes: r.renderer_rss_bytes, agent_rss_bytes: agentRssBytes } : before?.renderer_rss_bytes !== undefined ? { renderer_rss_bytes: before.renderer_rss_bytes, agent_rss_bytes: before.agent_rss_bytes ?? agentRssBytes } : {}),
    };
  }

  /** The `screen` part of AgentState; nothing until the shell first reported. */
  view(): { screen?: ScreenView } {
    return this.view_ ? { screen: this.view_ } : {};
  }
}
