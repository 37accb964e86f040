"""PRECEDENT spans on real judgment sentences from the InLegalNER training split.

Every sentence is from the ``fit`` part of ``benchmarks/eval_inlegalner.py`` (the 80% the rules are written
against; the ``dev`` 20% is only for confirming). Unless a comment says otherwise, the expected spans are
InLegalNER's own annotation. The text is the corpus' tokens joined by spaces, which is why punctuation is
sometimes spaced ("Bihar , .") and sometimes glued ("Ors.)"): the corpus labels whole words, glue included.
"""

from __future__ import annotations

import pytest

from verification.extract import CitationExtractor
from verification.extract.reporters import find_cores, find_loose_cores
from verification.extract.tagger import RulesOnly
from verification.model import Label


@pytest.fixture(scope="module")
def ex() -> CitationExtractor:
    # The rules alone: tests/unit/test_tagger.py has the learned tagger.
    return CitationExtractor(precedent_retagger=RulesOnly())


def _precedents(ex: CitationExtractor, text: str) -> list[str]:
    return [c.text for c in ex.extract(text) if c.label is Label.PRECEDENT]


SPANS = [
    # --- what the "v." is ---------------------------------------------------------------------------------
    # A capital "V." after an initial or a title is an initial, not "versus".
    ('On 12-4-1991 the counsel for the 2nd respondent i.e., Sri T. V. Ramana endorsed on the said complaint '
     'petition" and the complaint was "dismissed since not pressed" by the learned Magistrate.', []),
    # "v" glued to an abbreviation's full stop, and "V/s," with a comma for the stop.
    ("] Deoki Nandan Prasad v.State of Bihar & Ors.,[1971] Supp. S.C.R. 634 and State of Punjab & Anr.v Iqbal "
     "Singh ,", ["Deoki Nandan Prasad v.State of Bihar & Ors.,[1971] Supp. S.C.R. 634",
                 "State of Punjab & Anr.v Iqbal Singh"]),
    ('As observed by Justice Patteson in R.v. James Lloyd ?"', ["R.v. James Lloyd"]),
    ("social justice was held by three-judge Benches to be fundamental right approving the view taken in C.E.S.C. "
     "Ltd & Ors. V/s, Subhash Chandra Bose & Ors. [(1992) 1 SCC 441] .",
     ["C.E.S.C. Ltd & Ors. V/s, Subhash Chandra Bose & Ors. [(1992) 1 SCC 441]"]),
    # --- party names ----------------------------------------------------------------------------------------
    # "s/o" (son of) and "(dead) by Lrs" (through legal representatives) are inside a party's name.
    ("Reference may be may to the pronouncement of Hon'ble the Apex Court in the case of Joseph s/o Koveli Poulo "
     "Vs. State of Kerala reported in (2000) 5 SCC 197 , wherein Hon'ble the Apex Court in paragraph no. 14 has "
     'held as under:- "14.', ["Joseph s/o Koveli Poulo Vs. State of Kerala reported in (2000) 5 SCC 197"]),
    ("Hon'ble Supreme Court in Raghunath G Panhale (dead) by Lrs V Chagganlal Sundarji & Co. (1999) 8 SCC 1 held "
     'that: " a landlord need not lose his existing job , nor resigned it , nor reached a level of starvation to '
     "contemplate that he must get possession of his premises for establishing a business.",
     ["Raghunath G Panhale (dead) by Lrs V Chagganlal Sundarji & Co. (1999) 8 SCC 1"]),
    # "Hon'ble the Chief Justice": "the" inside a name after a title.
    ("In D.C. Saxena (Dr) v. Hon'ble the Chief Justice of India (1996) 5 SCC 216 this Court observed, inter alia, "
     "as under: (SCC pp. 244-45, para 35) Advocacy touches and asserts the primary value of freedom of expression.",
     ["D.C. Saxena (Dr) v. Hon'ble the Chief Justice of India (1996) 5 SCC 216"]),
    # A place or office after a comma closes the name when prose or the end of the text follows.
    ("A learned Judge of the Calcu'ta High Court also had an occasion to consider the validity of Section 34(1A) "
     "in Lakri Prasad Shah v. Income-tax Officer, Central Circle in matter No. 14 of 1955 which was decided by the "
     "learned Judge on 12-8-1955 .", ["Lakri Prasad Shah v. Income-tax Officer, Central Circle"]),
    ("It is however well settled that a, writ of certiorari lies only against judicial or quasi judicial "
     "authorities or tribunals and records need be produced in this Court for quashing the proceedings if held "
     "necessary as was observed in Udit Na-rain Singh v. Addl. Member Board of Revenue, Bihar , .",
     ["Udit Na-rain Singh v. Addl. Member Board of Revenue, Bihar"]),
    (', a two-judge bench of this Court while considering the question as regard grant of relief or reinstatement, '
     'observed: "The general rule of reinstatement in the absence of special circumstances was also recognised in '
     "the case of Workmen of Assam Match Co. Ltd. v. Presiding Officer, Labour Court, Assam and has again been "
     "affirmed recently in Tulsidas Paul v. Second Labour Court, W.B.",
     ["Workmen of Assam Match Co. Ltd. v. Presiding Officer, Labour Court, Assam",
      "Tulsidas Paul v. Second Labour Court, W.B."]),
    # A word broken at a line's end ("Govern- ment") is one word of the name.
    ("In Amar Chandra Chakraborty v. Collector of Excise, Govern- ment of Tripura & Ors.,(2) a Constitution Bench of "
     "this Court had to consider the question whether section 43 of the Bengal Excise Act, 1909 under which the "
     "licence of a liquor contractor was withdrawn, violated Articles 14 and 19 (1) (g) of the Constitution .",
     ["Amar Chandra Chakraborty v. Collector of Excise, Govern- ment of Tripura & Ors.,(2)"]),
    # "rep." (represented by) with nothing after it is outside.
    ("Reliance was placed on the judgment of E.Giri Yadav, M.A vs Union of India rep.",
     ["E.Giri Yadav, M.A vs Union of India"]),
    # "( since deceased)" with the bracket spaced off.
    (": The present appeal has been filed on behalf of the appellants against the impugned judgment/decree dated "
     "09.11.2009 passed by the Ld. Trial Court in Suit No. 1062/02 titled as ' Sh. Gauri Shankar ( since deceased) "
     "Through LRs Vs. Sh.Har Narain ( since deceased) Through LRs & Ors .",
     ["Sh. Gauri Shankar ( since deceased) Through LRs Vs. Sh.Har Narain ( since deceased) Through LRs & Ors"]),
    # "&Ors." is "& Ors." without its space.
    ("In Rajinder Kumar Sharma &Ors. Vs. Leela Wati & Ors., 155 (2008) Delhi Law Times 383 the court observed; \" "
     "Section 25B was inserted by the legislature in Delhi Rent Control Act as a special provision for eviction of "
     "the tenants in respect of specified category of cases as provided therein.",
     ["Rajinder Kumar Sharma &Ors. Vs. Leela Wati & Ors., 155 (2008) Delhi Law Times 383"]),
    # "v. Its workmen": the labour cases' respondent.
    ("The case law The Punjab National Bank Ltd. Vs. Its workmen (supra.) relied upon by ld. counsel for management "
     "has no application in the totality of facts and circumstances of this case.",
     ["Punjab National Bank Ltd. Vs. Its workmen"]),
    # A trailing "etc." with nothing after it is outside.
    ("15.1 Sri sen also relied heavily on the other cases, namely , State of Uttar Pradesh v. Bridge and Roof ; , "
     "Orissa Agro Industries v. Bharati Industries ; , Bareilley Development Authority v. Ajay Pal Singh ; , National "
     "Highway Authority of India v. Ganga Enterprises etc.",
     ["State of Uttar Pradesh v. Bridge and Roof", "Orissa Agro Industries v. Bharati Industries",
      "Bareilley Development Authority v. Ajay Pal Singh", "National Highway Authority of India v. Ganga Enterprises"]),
    # A case number before the name starts after "In": the case is the writ petition, not the appeal.
    ("IN D.B. Civil Special Appeal (Writ) No.352/2005 In S.B. Civil Writ Petition No.4251/1994 V.K. Gaur Vs. State "
     "of Rajasthan and Another Date of Order ::: 05.10.2010",
     ["S.B. Civil Writ Petition No.4251/1994 V.K. Gaur Vs. State of Rajasthan and Another"]),
    # A case number before a bracket standing alone is outside (with a glued bracket it is inside).
    ("S.C.Malik , Judge, MACT (Central), Delhi Page 20/24 10.09.2014 Suit No.645/10 ( Smt.Girja Devi & ors. V/s "
     "Nanhey Lal & ors. )", ["Smt.Girja Devi & ors. V/s Nanhey Lal & ors."]),
    # --- two cases in a row -------------------------------------------------------------------------------------
    ("Shri A. Krishnaiah , the learned counsel for defendant No. 26, has relied on Waman Shriniwas Kini v. Ratilal "
     "Bhagwandas & Co. and Raghavachari v. Ramakrishna Reddy, 1965 2 Andh W R 61 in support of his submission "
     "that the entire sale transaction is void.",
     ["Waman Shriniwas Kini v. Ratilal Bhagwandas & Co.", "Raghavachari v. Ramakrishna Reddy, 1965 2 Andh W R 61"]),
    ("As pointed out in Chainrup Sampatram v. CIT and Indo-Commercial Bank Ltd. v. CIT [1962] 44 ITR 22 (Mad) , "
     "merely because the new method adopted by the assessee was detrimental to the Revenue, that alone can never be "
     "the basis for denying the right to change the method.",
     ["Chainrup Sampatram v. CIT", "Indo-Commercial Bank Ltd. v. CIT [1962] 44 ITR 22 (Mad)"]),
    # Cases listed with commas: the first party of the next case starts after the comma. (The corpus runs the
    # first two together here, and leaves out a possessive "Association's case"; two cases are two spans.)
    ("Specific reference has been made to Krishena Kumar 's case, supra, Indian Ex-Services League v Union of "
     "India , All India Reserve Bank Retired Officers' Association's case, supra, State of West Bengal v Ratan "
     "Behari Dey, Sasadhar Chakravarthy and Another v Union of India and Others, State of Rajasthan and Another v "
     "Amrit Lal Gandhi , State of Mysore and Another v K.N. Chandrasekhara .",
     ["Indian Ex-Services League v Union of India", "State of West Bengal v Ratan Behari Dey",
      "Sasadhar Chakravarthy and Another v Union of India and Others",
      "State of Rajasthan and Another v Amrit Lal Gandhi", "State of Mysore and Another v K.N. Chandrasekhara"]),
    # --- citations after a name ---------------------------------------------------------------------------------
    # Reporters no pattern lists are read right after a case name: "Pun Re" (Punjab Record).
    ("In this connection, the oft-quoted passage, from the judgment of Plowden , J., in Joti v. Maya, 44 Pun Re "
     "1891 (FB) may be cited:-", ["Joti v. Maya, 44 Pun Re 1891 (FB)"]),
    # Tax reports: the Taxman citation after a slash is a parallel citation. (The corpus also takes the unclosed
    # "(Punj. & Har." of the second case.)
    ("In support of the same, he referred to Sohan Singh v. CIT [1986] 158 ITR 174/23 Taxman 219 (Delhi) and Kirpa "
     "Ram Ramji Dass v. ITO [1982] 135 ITR 68/[1980] 3 Taxman 487 (Punj. & Har. ) to point out that even under "
     "section 148 addition can be made where a concern was held to be benami of the assessee.",
     ["Sohan Singh v. CIT [1986] 158 ITR 174/23 Taxman 219 (Delhi)",
      "Kirpa Ram Ramji Dass v. ITO [1982] 135 ITR 68/[1980] 3 Taxman 487"]),
    # A Roman volume before the year: Banking Cases.
    ("In Punjab & Haryana High Court , in Surinder Singh v. John Impex (P) Ltd. (I (1997) BC 247) , it was held "
     "that a power of attorney agent of the payee or the holder in due course is competent to make a complaint in "
     "writing under Section 138 of the N.I.Act to facilitate valid cognizance being taken by the Magistrate.",
     ["Surinder Singh v. John Impex (P) Ltd. (I (1997) BC 247)"]),
    # Two bracketed parallel citations.
    ("In Rajasthan Road Transport Corporation Vs Kylasnath Kothari and others [1997 (7) SCC 43]:[1997 KHC 1048] , "
     "the Hon'ble Supreme court held that the expression `owner' must include a person who is in the actual "
     "possession or control of and under whose directions and commands the driver is obliged to operate the "
     "vehicle.",
     ["Rajasthan Road Transport Corporation Vs Kylasnath Kothari and others [1997 (7) SCC 43]:[1997 KHC 1048]"]),
    # "Depot., 1877 Lab IC 432": a full stop before the comma.
    ("Both these views came up for consideration before . Division Bench of this Court in M. Krishna Swamy v. "
     "Assam Tea Depot., 1877 Lab IC 432 .", ["M. Krishna Swamy v. Assam Tea Depot., 1877 Lab IC 432"]),
    # AIR's Notes of Unreported Cases.
    ("Particular reliance was placed on Shalimar Paint Colour and Varnish Co. Ltd v. Chief Secy. to Govt. of "
     "Travancore Cochin, ILR (1954) Trav-Co 453 : AIR 1955 NUC (Trav-Co) 4125 holding that if the State has not "
     "authorised its agent then the State cannot possibly be bound therefor.",
     ["Shalimar Paint Colour and Varnish Co. Ltd v. Chief Secy. to Govt. of Travancore Cochin, ILR (1954) Trav-Co "
      "453 : AIR 1955 NUC (Trav-Co) 4125"]),
    # A pinpoint "at 897" is inside; a case number in a bracket closed only later ends with its number.
    ('In Municipal Corporation of Delhi v. P.D. Jhunjunwala, [1983] 1 SCR 895 at 897 it was further made clear: " '
     '. . .', ["Municipal Corporation of Delhi v. P.D. Jhunjunwala, [1983] 1 SCR 895 at 897"]),
    ("In Dr. Mrs. Nirmal T. Shah v. Sharavathi Petro Chemicals (Company Petition No. 38 of 1980 decided on "
     "10-10-1984 ), Chandrakantharaj Urs J. has held that",
     ["Dr. Mrs. Nirmal T. Shah v. Sharavathi Petro Chemicals (Company Petition No. 38 of 1980"]),
    # Court marks after a bracketed citation has closed.
    ("In CIT v. Dr. Rameshwarlal Pahwa (123 ITR 681) (Del) , at page 690, Hon'ble Justice S. Ranganathan (as His "
     'Lordship then was) has observed that "it is well settled that where income falls in a particular head its '
     'computation has also to be made under the same head". 9.',
     ["CIT v. Dr. Rameshwarlal Pahwa (123 ITR 681) (Del)"]),
    ("Even Deshpande , J. in Amarjit Kaur 's case (1969 Acc CJ 286) (Delhi) (supra) concedes: \"the English law of "
     "Torts has been applied by the Indian Courts on the ground that in the absence of any other rule of law, the "
     'Courts are to follow the principles of justice. equity and good conscience".', ["(1969 Acc CJ 286) (Delhi)"]),
    # Pinpoints in brackets: a page, a paragraph.
    ("[382A; 374D] Caledonian Railway Co. v. Walker's Trustees , and Quin v. Leathern, [1901] A.C. 495 (502) , "
     "referred to. (3) Apart from Article 141 of the Constitution the policy of courts is to stand by precedent and "
     "not to disturb settled point.",
     ["Caledonian Railway Co. v. Walker's Trustees", "Quin v. Leathern, [1901] A.C. 495 (502)"]),
    ("The Supreme Court referred to the decision in Salem Bar Association (I) Vs. Union of India (2005) 6 SCC 344 "
     '(para 10) that held that "if the parties agreed to arbitration then the provision of Arbitration and '
     "Conciliation Act will apply and the case Crl. Misc. No.22148-M of 2002 (O&M) -28- would go outside the stream "
     "of Court......",
     ["Salem Bar Association (I) Vs. Union of India (2005) 6 SCC 344 (para 10)"]),
    # "(Supplementary)", a series glued to its reporter ("MLJ(Cri)"), an AIR court of two words joined by "and".
    ("(4) SCC 765] (4) Nirmal Chandra Bhattacharjee and others vs. Union of India and others [1997 (Supplementary) 2 "
     "SCC 363] (5) T.R. Kapur and others vs. State of Haryana and others [1986 (Supp) SCC 584] (6) Mohammed Bhakar "
     "vs. Y. Krishna Reddy [1970 SLR 768]",
     ["Nirmal Chandra Bhattacharjee and others vs. Union of India and others [1997 (Supplementary) 2 SCC 363]",
      "T.R. Kapur and others vs. State of Haryana and others [1986 (Supp) SCC 584]",
      "Mohammed Bhakar vs. Y. Krishna Reddy [1970 SLR 768]"]),
    ("This is more so, when such a view will also advance the legislative intent, behind enactment of this criminal "
     "liability.\" Section 139 NI Act is an example of reverse onus clause as observed by Hon'ble Supreme Court in "
     "Rangrappu vs. Sri Mohan 2010 3 MLJ(Cri) 547(SC) .", ["Rangrappu vs. Sri Mohan 2010 3 MLJ(Cri) 547(SC)"]),
    ("Learned Advocate General has also placed reliance on the Full Bench decision of Punjab and Haryana High Court "
     "in the case of Indu Gupta vs. Director, Sports Pubjab, Chandigarh reported in AIR 1999 Punjab and Haryana 319 "
     "(FB) .",
     ["Indu Gupta vs. Director, Sports Pubjab, Chandigarh reported in AIR 1999 Punjab and Haryana 319 (FB)"]),
    # A citation, "in" or "in case", and the case name are one span.
    ("The judgement which the Id. AR for the assessee relied upon is 40 ITR 618 (SC) in case Bhopal Sugar Mills v. "
     "ITO .", ["40 ITR 618 (SC) in case Bhopal Sugar Mills v. ITO"]),
    # A citation and a case name in brackets standing alone are two spans (with glued brackets, one).
    ("Discrepancies, Cr.A No. 491/1994 Cr. A No. 1190/1996 contradictions and omissions in the evidence of a witness "
     "should be evaluated with a balanced approach in right perspective, the Apex Court , in this regard, in AIR 1983 "
     "SC 753 ( Bharwada Bhoginbhai Hirjibhai Vs. State of Gujrat ) in para 5 observed as follows:- \"Over much "
     "importance cannot be attached to minor discrepancies.",
     ["AIR 1983 SC 753", "Bharwada Bhoginbhai Hirjibhai Vs. State of Gujrat"]),
    # A case number after the name, also without "No." after a bracketed type.
    ("A further reference to the judgment in the case of M/s Nina Garments (Pvt) Ltd versus M/s Unitech Ltd, CS(OS) "
     "1368/2009 decided by the Delhi High Court on 24.9.2012 has been given.",
     ["M/s Nina Garments (Pvt) Ltd versus M/s Unitech Ltd, CS(OS) 1368/2009"]),
    # --- whole words: glued brackets, footnote marks and list numbers --------------------------------------------
    ("Even in ( Ch. Tika Ramji and Ors. v. The State of Uttar Pradesh and Ors.) it was held that production, "
     "supply and distribution of sugarcane is the exclusive sphere of the State but with subjective control of the "
     "Union as per Entry 33 of List III i.e. Concurrent List of the Constitution of India .",
     ["Ch. Tika Ramji and Ors. v. The State of Uttar Pradesh and Ors.)"]),
    ("Another decision by a single Judge of that High Court in the case of AIR 1934 All 693(2) held that the "
     "Legislature intends that the statement should be personal statement made by the accused and that statement "
     "made by an Advocate is merely hearsay.", ["AIR 1934 All 693(2)"]),
    ("3.State of Haryana Vs. Bhajan Lal (1992 SCC (Cri) 426)",
     ["3.State of Haryana Vs. Bhajan Lal (1992 SCC (Cri) 426)"]),
    # A bracket standing alone is a word of its own and is left out at the end.
    ("(See Gurucharan Singh and Anr. v. State of Punjab ( AIR 1956 SC 460 ).",
     ["Gurucharan Singh and Anr. v. State of Punjab ( AIR 1956 SC 460"]),
    # A list number glued to a citation's year is inside: "12.2007 (2) TNT 193" is item 12.
    ("12.2007 (2) TNT 193 (Jayalakshmi and another vs. Govindammall and others) 13.2008 (1) MLJ 560 (Angammal and "
     "another vs. C.Sellamuthu and another) 7.",
     ["12.2007 (2) TNT 193 (Jayalakshmi and another vs. Govindammall and others)",
      "13.2008 (1) MLJ 560 (Angammal and another vs. C.Sellamuthu and another)"]),
    # --- not precedents -------------------------------------------------------------------------------------------
    # Footnotes of a reported judgment, spliced into the sentence by text extraction.
    ("between the Governor-General in Council and any province if and in so far as the dispute involves any "
     "question (whether of law or fact) on which the exist- (1) [1955] 1 S.C.R. 206 . (2) [1959] F.C.R. 124 ence "
     "or extent of a legal right depends.", []),
    # A footnote's citation is a footnote even when read as grown over a name ("A. T. R.", a misread "A.I.R.").
    ("Applying the test of Kuppuswami case such an order will (1) A. T. R. 1970 S.C. 406 . (2) [1968] 2 S.C.R. 685 . "
     "not be a final order.", []),
    # A case number in capitals: "1879 OF 1972" is no "<year> <Reporter> <page>".
    ("CIVIL APPEAL NO. 1879 OF 1972 AND CIVIL APPEAL NO. 115 of 1974 Appeal by special leave from the Judgment dated "
     "the 29th January, 1973 of the Delhi High Court in LPA No. 155 of 1972 .", []),
    # The head of a reported judgment (the first 300 characters of the sentence): its own reports and the later
    # judgments citing it.
    ("CITATION: 1977 AIR 2185 1978 SCR (1) 222 1977 SCC (4) 137 CITATOR INFO : APR 1978 SC 47 (6,10,15) E 1980 SC "
     "962 (6,44,64,66,67,68,99,102,103,1 RF 1992 SC 604 (96,97) ACT: Code of Criminal Procedure, 1973 - Ss. 397 and "
     "482 -Scope of. Interlocutory order--What is-Order compelling persons to face trial", []),
]


@pytest.mark.parametrize(("sentence", "expected"), SPANS)
def test_precedent_spans_on_inlegalner_sentences(ex: CitationExtractor, sentence: str, expected: list[str]) -> None:
    assert _precedents(ex, sentence) == expected


def test_footnote_citation_is_no_provision_either(ex: CitationExtractor) -> None:
    # Without the footnote's citation the spaced "S. C. R. 583" must not turn into a provision "R. 583" (a rule).
    text = "As already indicated, the statutory (1) [1952] S. C. R. 583 ."
    assert ex.extract(text) == []


def test_a_footnote_needs_its_number_or_another_footnote(ex: CitationExtractor) -> None:
    # The same citation in the running text is a precedent.
    text = "This view finds support in [1955] 1 S.C.R. 206 ."
    assert _precedents(ex, text) == ["[1955] 1 S.C.R. 206"]


CORES = [
    ("(1867) L.R. 2 C.P. 651", ["(1867) L.R. 2 C.P. 651"]),  # the Law Reports: volume, series, page
    ("L.R. 52 I.A. 191", ["L.R. 52 I.A. 191"]),
    ("I (1997) BC 247", ["I (1997) BC 247"]),
    ("[1986] 158 ITR 174/23 Taxman 219", ["[1986] 158 ITR 174", "23 Taxman 219"]),
    # A witness is not a reporter: "2007 (Y) PW25-Dr. M.Sathikumar".
    ("Crl. Appeal No. 907 of of 2007 (Y) PW25-Dr. M.Sathikumar", []),
    # A slash between a case number and a year is no parallel citation.
    ("(2010 (12) M.A.C.A.No.850/2016 SCC 378 )", []),
]


@pytest.mark.parametrize(("text", "expected"), CORES)
def test_citation_cores(text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e, _ in find_cores(text)] == expected


def test_loose_cores_only_where_no_known_reporter_is() -> None:
    text = "Megha Ram v. Makhan Lal, 67 Pun Re 1912: 130 Pun Re 1916: (AIR 1917 Lah 135)"
    cores = find_cores(text)
    assert [text[s:e] for s, e, _ in cores] == ["AIR 1917 Lah 135"]
    assert [text[s:e] for s, e, _ in find_loose_cores(text, cores)] == ["67 Pun Re 1912", "130 Pun Re 1916"]
    # A date reads like "<volume> <Reporter> <page>"; it is never a loose core.
    assert find_loose_cores("decided on 12 March 2014 by the Bench", []) == []
