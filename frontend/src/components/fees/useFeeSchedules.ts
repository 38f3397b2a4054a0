// The fee schedules in force, shared by the Fees page and its dialogs.
import { useQuery } from '@tanstack/react-query';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { listFeeSchedulesOptions, listFeeSchedulesQueryKey } from '../../client/@tanstack/react-query.gen';
import type { FeeSchedule, SellingMarketSlugInput } from '../../client/types.gen';

/** Where the schedules are cached: a change answers them all, written straight in. */
export const feeSchedulesKey = () => listFeeSchedulesQueryKey();

export function useFeeSchedules() {
  return useQuery({ ...listFeeSchedulesOptions(), select: (answer) => answer.data });
}

/** The {market} path of a schedule's routes: its marketplace's slug (schedules exist only for selling marketplaces). */
export const feePath = (s: FeeSchedule) => ({ market: MARKETPLACES[s.marketplace].slug as SellingMarketSlugInput });
