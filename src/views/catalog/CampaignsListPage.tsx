import { CampaignsListPage } from './CatalogListPage';

export default CampaignsListPage;
