// The picture of each sidebar icon a marketplace's registry entry may name (`icon`,
// domain/src/marketplaces.ts): a marketplace picks one of these, it adds no code here.
import type { MarketplaceIcon } from '@app/domain/marketplaces';
import { IconBook, IconBooks, IconBrandAmazon, IconBuildingStore, IconPackage, IconShoppingBag, type Icon } from '@tabler/icons-react';

export const MARKETPLACE_ICON: Readonly<Record<MarketplaceIcon, Icon>> = {
  book: IconBook,
  books: IconBooks,
  store: IconBuildingStore,
  package: IconPackage,
  amazon: IconBrandAmazon,
  'shopping-bag': IconShoppingBag,
};
