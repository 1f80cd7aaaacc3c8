package retrieval

import "strings"

// lexicon maps a word to related words, for query expansion. It is a
// general-purpose English thesaurus of everyday request vocabulary, written
// by hand; nothing in it is derived from labelled queries.
type lexicon struct {
	byWord map[string][]string
	byStem map[string][]string
}

func newLexicon() lexicon {
	l := lexicon{byWord: map[string][]string{}, byStem: map[string][]string{}}
	for _, line := range strings.Split(relatedWords, "\n") {
		group := strings.Fields(strings.ReplaceAll(line, ",", " "))
		for _, w := range group {
			sw := stem(w)
			for _, o := range group {
				if o != w {
					l.byWord[w] = append(l.byWord[w], o)
					l.byStem[sw] = append(l.byStem[sw], o)
				}
			}
		}
	}
	return l
}

// related returns the words related to word (or to its stem).
func (l lexicon) related(word, stemmed string) []string {
	if r, ok := l.byWord[word]; ok {
		return r
	}
	return l.byStem[stemmed]
}

// relatedWords: one group of related words per line.
const relatedWords = `buy purchase shop shopping order acquire store retail
price prices cost costs cheap expensive deal deals discount coupon coupons sale bargain promo voucher
product products item items goods merchandise
compare comparison versus alternatives
recommend recommendation recommendations suggest suggestion suggestions advice tips ideas
find search look lookup locate discover query seek browse explore
travel trip trips vacation holiday journey tour tourism itinerary destination
flight flights airline airlines plane airport fly flying aviation pilot
hotel hotels accommodation lodging stay motel resort booking rooms
car cars vehicle vehicles auto automobile driving drive
rent rental renting lease tenant apartment apartments
house home homes housing property properties real estate realtor mortgage
job jobs career careers employment work hiring hire recruit resume cv interview vacancy position salary
course courses class classes lesson lessons tutorial training learn learning study studying education school university teach teacher tutor
exam test tests quiz practice preparation
language languages translate translation translator english spanish french german chinese japanese foreign vocabulary grammar
write writing writer essay article blog content copywriting draft compose
edit editing proofread grammar polish rewrite paraphrase improve rephrase
summarize summary summaries summarise digest overview brief gist tldr extract key points
pdf document documents doc file files paper report
image images picture pictures photo photos photograph photography visual illustration graphic art artwork
video videos movie movies film films clip
music song songs playlist playlists artist album audio track tracks
podcast podcasts episode episodes
book books novel novels reading read library author ebook
news headlines headline current events latest breaking updates journalism
weather forecast temperature rain climate
sport sports game games match matches team teams score scores league football soccer basketball baseball tennis
stock stocks share shares market markets invest investing investment investor portfolio trading trade equity
finance financial money bank banking budget accounting
crypto cryptocurrency blockchain token tokens coin coins nft wallet defi
tax taxes deduction
health medical medicine doctor symptoms disease illness diagnosis treatment hospital clinic
fitness exercise workout workouts gym training strength muscle cardio
diet nutrition calories food meal meals healthy
recipe recipes cook cooking dish dishes meal cuisine ingredients bake baking kitchen
restaurant restaurants dining eat dinner lunch menu cafe
wine wines beer drinks cocktail cocktails beverage
law laws legal lawyer attorney court contract contracts regulation regulations statute rights
email emails mail inbox message messages
calendar schedule scheduling meeting meetings appointment appointments event events agenda
reminder reminders todo task tasks checklist notes note memo
note notes notebook notebooks jot journal
code coding program programming developer software script scripts source function
database sql query queries table tables data
data dataset datasets statistics analytics analysis analyze chart charts graph graphs visualization visualize plot
spreadsheet spreadsheets csv sheet sheets
website websites site sites web page pages url link links internet online browser
scrape scraping crawl crawler fetch extract
seo ranking keywords traffic marketing advertising ads ad campaign campaigns promotion
social post posts
map maps location locations directions route routes navigation gps address place places nearby
astrology horoscope horoscopes zodiac
religion bible scripture prayer faith church god spiritual
pet pets dog dogs cat cats animal animals veterinary
plant plants garden gardening flowers houseplant
art painting paintings museum museums gallery artist artists
science scientific research researcher academic scholarly papers journal journals study studies
space astronomy planet planets galaxy stars universe rocket
math mathematics calculate calculation calculator equation equations compute arithmetic
convert conversion converter transform unit units
quote quotes quotation inspiration inspirational motivational motivation
joke jokes funny humor meme memes laugh
gift gifts present presents
fashion clothing clothes outfit outfits wear style apparel dress shoes
beauty skincare cosmetics makeup skin hair
kid kids child children toddler preschool
game games gaming play player puzzle puzzles trivia quiz
ticket tickets show shows concert concerts theater theatre performance
event events festival festivals
weather storm snow
fuel gas petrol gasoline diesel
energy electricity power solar
company companies business businesses startup startups enterprise firm
sales lead leads customer customers prospect prospects crm
invoice invoices payment payments pay billing
shipping delivery deliver package parcel tracking
phone phones call calls sms text texting
chat conversation talk converse discuss
question questions answer answers ask
image generate generation create creating design designer drawing draw render
logo logos brand branding icon icons
presentation presentations slides slide deck
diagram diagrams flowchart chart mindmap
resume resumes cv
idea ideas brainstorm brainstorming
history historical past archive archives
date time timezone clock
country countries city cities nation region regions state states
population demographics census
vote voting election elections politics political government policy
environment environmental climate carbon emissions sustainability
insurance insure coverage policy
loan loans credit debt mortgage interest
mental therapy therapist anxiety depression stress meditation mindfulness wellbeing
sleep sleeping insomnia dream dreams
baby pregnancy pregnant parenting parent parents
wedding marriage bride
dating relationship relationships love partner
security secure password passwords privacy hack vulnerability
server servers cloud infrastructure devops deploy deployment
repository repo repositories
api apis endpoint endpoints integration
automation automate automated workflow workflows
survey surveys form forms poll polls feedback
review reviews rating ratings opinion opinions
word words definition definitions dictionary meaning meanings synonym synonyms
speech voice audio transcribe transcription transcript speak
slang phrase phrases expression expressions
economy economic inflation gdp recession
wealth rich assets asset savings retirement pension
earnings revenue profit profits income dividend dividends
transaction transactions transfer transfers
buying selling sell sold seller buyer
home apartment condo neighborhood neighbourhood
renovation remodel repair decor interior furniture
browse surf navigate visit
information info details facts knowledge
retrieve retrieval get obtain access collect gather
analyze analyse analysis insight insights evaluate evaluation assess assessment audit
improve optimize optimise optimization enhance boost increase
website site domain homepage
performance speed fast slow latency
accessibility usability accessible
vulnerability vulnerabilities scan scanner scanning exploit malware threat threats
deploy deployment hosting host publish launch
ai artificial intelligence llm model models agent agents bot bots
opinion opinions perspective perspectives viewpoint
weather sunny cloudy humid wind windy
trending trends trend popular viral
headline headlines story stories press
university college campus degree degrees
sentence sentences paragraph paragraphs text texts
rewrite rephrase paraphrase reword restate
tone formal informal casual professional
picture pictures wallpaper wallpapers
describe description explain explanation caption captions interpret
wardrobe closet outfit clothing
shirt shirts tshirt hoodie
question answering faq
medication medications drug drugs pharmacy prescription
symptom symptoms pain ache fever
run running jog jogging marathon walk walking steps
bike biking cycling cycle
yoga pilates stretching
weight lose loss fat slim
team players player roster coach coaches
schedule fixtures fixture upcoming
result results outcome outcomes final
kid kids family families
tourist attractions sightseeing landmarks visit places
cheap affordable budget inexpensive low cost
luxury premium
hike hiking trail trails camping outdoor outdoors
fish fishing hunting`
