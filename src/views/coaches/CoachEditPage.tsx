import { CoachEditPage } from './CoachFormPage';

export default CoachEditPage;
