// The fee schedules in force, shared by the Fees page and its dialogs.
import { useQuery } from '@tanstack/react-query';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { listFeeSchedules } from '../../client/sdk.gen';
import type { FeeSchedule, SellingMarketSlugInput } from '../../client/types.gen';

export const FEE_SCHEDULES_KEY = ['fee-schedules'] as const;

export function useFeeSchedules() {
  return useQuery({
    queryKey: FEE_SCHEDULES_KEY,
    queryFn: async ({ signal }) => (await listFeeSchedules({ signal })).data.data,
  });
}

/** The {market} path of a schedule's routes: its marketplace's slug (schedules exist only for selling marketplaces). */
export const feePath = (s: FeeSchedule) => ({ market: MARKETPLACES[s.marketplace].slug as SellingMarketSlugInput });
