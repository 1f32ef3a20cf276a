import type { DashboardStats, RecentActivity } from "@contract/dashboard";
import { TitledCard } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { formatCurrency, formatDate } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useAttention, useDashboardStats, useFeaturedArtist } from "./dashboard-api";
import { activityLabel, formatTrend } from "./dashboard-text";
import { StatCard, type StatCardProps } from "@web/components/ui/stat-card";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { AttentionCard } from "./attention-card";
import { FeaturedArtistCard } from "./featured-artist-card";
import { QuickActionsCard } from "./quick-actions-card";

/** Dashboard (docs/product.md §3): six stat cards, quick actions, recent activity; loads 100 ms after opening. */
export default function DashboardPage() {
  const ready = useLoadDelay();
  const stats = useDashboardStats(ready);

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <h1 id="page-title" className="text-2xl font-bold">
        Dashboard
      </h1>
      {stats.isError ? (
        <DashboardError message={stats.error.message} retrying={stats.isFetching} onRetry={() => void stats.refetch()} />
      ) : stats.data ? (
        <DashboardContent stats={stats.data} ready={ready} />
      ) : (
        <Spinner className="py-12" label="Loading dashboard" />
      )}
    </section>
  );
}

function DashboardError({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry: () => void }) {
  return <LoadErrorCard title="Error loading dashboard" message={message || "Failed to load dashboard stats"} onRetry={onRetry} retrying={retrying} />;
}

/** A card's query has its answer, or a first failure (the card says so; retries go on in the card). */
const settled = (query: { isPending: boolean; failureCount: number }) => !query.isPending || query.failureCount > 0;

function DashboardContent({ stats, ready }: { stats: DashboardStats; ready: boolean }) {
  // The row below 'Needs Attention' and 'Featured Artist' waits for both cards' answers (the same
  // queries as the cards': no extra request): growing from their spinners to their contents, the
  // cards would otherwise push it down (the dashboard's layout shift, CLS 0.077, issue 23).
  const attention = useAttention(ready);
  const featured = useFeaturedArtist(ready);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <StatCard title="Total Artists" value={String(stats.totalVendors)} description={`${stats.activeVendors} active`} />
        <StatCard title="Monthly Recurring" value={formatCurrency(stats.monthlyRecurring)} description="Subscription revenue" />
        <StatCard title="Total Products" value={String(stats.totalProducts)} description="Listed items" />
        <TrendStatCard
          title="Platform Fees (MTD)"
          value={formatCurrency(stats.platformFees)}
          description={`${stats.platformFeePercentage}% transaction fees`}
          trend={stats.trends.platformFees}
          trendLabel="vs same days last month"
        />
        <TrendStatCard title="Today's Sales" value={formatCurrency(stats.todaySales)} description="Gross merchandise value" trend={stats.trends.todaySales} trendLabel="vs yesterday" />
        <TrendStatCard title="Week Sales" value={formatCurrency(stats.weekSales)} description="Last 7 days" trend={stats.trends.weekSales} trendLabel="vs previous 7 days" />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <AttentionCard enabled={ready} />
        <FeaturedArtistCard enabled={ready} />
      </div>
      {settled(attention) && settled(featured) ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <QuickActionsCard />
          <RecentActivityCard events={stats.recentActivity} />
        </div>
      ) : null}
    </>
  );
}

interface TrendStatCardProps extends StatCardProps {
  /** Percentage change from the rollups; null (nothing to compare with) or absent shows none. */
  trend?: number | null;
  trendLabel?: string;
}

function TrendStatCard({ trend, trendLabel, ...card }: TrendStatCardProps) {
  const footer =
    trend !== undefined && trend !== null ? (
      <p className={trend >= 0 ? "text-xs text-green-700" : "text-xs text-red-700"}>
        {formatTrend(trend)} {trendLabel}
      </p>
    ) : null;
  return <StatCard {...card} footer={footer} />;
}

function RecentActivityCard({ events }: { events: RecentActivity[] }) {
  return (
    <TitledCard title="Recent Activity">
      {events.length === 0 ? (
        <p className="text-sm text-gray-600">No recent activity</p>
      ) : (
        <ul className="grid gap-3" aria-label="Recent Activity">
          {events.map((e, i) => (
            <li key={`${e.type}-${e.timestamp}-${i}`} className="flex items-baseline justify-between gap-3 text-sm">
              <span>
                {activityLabel(e.type)} <span className="font-medium">{e.name}</span>
              </span>
              <time dateTime={e.timestamp} className="shrink-0 text-xs text-gray-600">
                {formatDate(e.timestamp)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </TitledCard>
  );
}
