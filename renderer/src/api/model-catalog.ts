import type { WorkstationModel } from '../../../main/service/contract/workstation-api';

/**
 * The models a node may hold come from the service (`GET /workstation/models/`, loaded and cached
 * per node by store/catalog-store.ts); nothing here lists them. These read such a list.
 */
export type CatalogModel = WorkstationModel;

/** The model's title from the service's catalog; its model type while the catalog is not there. */
export function titleOf(models: readonly CatalogModel[] | undefined, modelType: string): string {
  return models?.find((model) => model.model_type === modelType)?.title ?? modelType;
}
